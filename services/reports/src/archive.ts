import { Zip, ZipDeflate } from 'fflate';

/**
 * Writes one file into a zip archive as it is produced, compressing each piece as it comes, so that
 * a large report never has to be held whole, compressed or not. `sink` receives the archive's bytes
 * in order.
 *
 * @example
 * const zip = new ZipWriter('report.csv', (bytes) => chunks.push(bytes));
 * zip.write('a,b\r\n');
 * zip.close();
 */
export class ZipWriter {
  private readonly zip: Zip;
  private readonly entry: ZipDeflate;
  private readonly encoder = new TextEncoder();

  constructor(fileName: string, sink: (bytes: Uint8Array) => void, mtime = new Date()) {
    this.zip = new Zip((err, data) => {
      if (err) throw err;
      if (data.length) sink(data);
    });
    this.entry = new ZipDeflate(fileName, { level: 6 });
    this.entry.mtime = mtime;
    this.zip.add(this.entry);
  }

  write(text: string): void {
    this.entry.push(this.encoder.encode(text), false);
  }

  close(): void {
    this.entry.push(new Uint8Array(0), true);
    this.zip.end();
  }
}
