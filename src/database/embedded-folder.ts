import fs from 'node:fs';
import path from 'node:path';

/** The embedded database's folder cannot be used: the service refuses to start, naming it. */
export class EmbeddedFolderError extends Error {
  constructor(folder: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? String(cause);
    super(`DB_PATH ${folder} cannot be used by the embedded database (${code}): it must be a writable folder with free space`);
    this.name = 'EmbeddedFolderError';
  }
}

/**
 * Checked once before the database opens, so a folder that cannot be written (a file in its
 * path, a read-only mount, a full disk) stops the start with one sentence instead of ten
 * connection retries and a stack. A probe file is written and removed; the data is not touched.
 */
export function assertUsableFolder(folder: string): void {
  if (folder === ':memory:') return;
  const probe = path.join(folder, `.write-probe-${process.pid}`);
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(probe, Buffer.alloc(64 * 1024));
    fs.rmSync(probe);
  } catch (err) {
    throw new EmbeddedFolderError(folder, err);
  } finally {
    removeQuietly(probe);
  }
}

function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Nothing was written where nothing can be written.
  }
}
