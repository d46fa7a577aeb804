import { readFile } from 'node:fs/promises';
import { FileTypeValidator } from '@nestjs/common';
import { describe, expect, it } from 'vitest';

/**
 * @nestjs/common 12.5 asks for file-type 22, which declares Node 22 or newer; package.json pins
 * file-type 21 (Node 20 or newer, the same `fileTypeFromBuffer`) through `overrides`, so `npm ci`
 * installs a version meant for the Node this service runs on. Nest loads it only inside
 * FileTypeValidator (a file upload's magic-number check), and this is that path: if the package
 * failed to load, the validator would answer false for every file.
 */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
type Upload = Parameters<FileTypeValidator['isValid']>[0];
const file = (buffer: Buffer, mimetype: string): Upload =>
  ({ buffer, mimetype, size: buffer.length, originalname: 'upload', fieldname: 'file', encoding: '7bit' }) as Upload;

describe('file-type on this Node', () => {
  it('reads magic numbers: a PNG passes, a JPEG sent as PNG does not', async () => {
    const png = new FileTypeValidator({ fileType: 'image/png' });
    expect(await png.isValid(file(PNG, 'image/png'))).toBe(true);
    expect(await png.isValid(file(JPEG, 'image/png'))).toBe(false);
    expect(await new FileTypeValidator({ fileType: 'image/jpeg' }).isValid(file(JPEG, 'image/jpeg'))).toBe(true);
  });

  it('is the version pinned for Node 20', async () => {
    // The package's exports hide its manifest; read the copy Nest resolves first (its own
    // node_modules, then the root's).
    const places = ['../../../node_modules/@nestjs/common/node_modules/file-type/package.json', '../../../node_modules/file-type/package.json'];
    const texts = await Promise.all(places.map((p) => readFile(new URL(p, import.meta.url), 'utf8').catch(() => undefined)));
    const text = texts.find((t) => t !== undefined) ?? '{}';
    const manifest = JSON.parse(text) as { engines: { node: string } };
    expect(manifest.engines.node).toBe('>=20');
  });
});
