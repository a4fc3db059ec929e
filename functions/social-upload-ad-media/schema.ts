/** The operation's request and answer: the same on both platforms. */
export { adImageResult, adMediaResult, adVideoJobResult, uploadAdMediaRequest } from '../../shared/schemas/ad-media.ts';
