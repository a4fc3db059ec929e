/** A file sent in a multipart form, as the request schemas see it. */
export interface UploadedFile {
  filename: string;
  content: Buffer;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).content);
}
