/** Synthetic contact lists for upload tests. */
export function contactsCsv(rows: number, options: { header?: string; lineEnd?: string } = {}): string {
  const lines = [options.header ?? 'email,phone,first_name,last_name,zip,country'];
  for (let index = 0; index < rows; index++) {
    lines.push(
      `person${index}@example.com,+1 415 555 ${String(index % 10_000).padStart(4, '0')},Ann${index % 7 === 0 ? '-Marie' : ''},Lee,9410${index % 10},US`,
    );
  }
  return `${lines.join(options.lineEnd ?? '\n')}\n`;
}
