// Module hooks that let a worker thread run straight from the TypeScript sources (tests, dev):
// a `.js` import with no such file resolves to the `.ts` beside it, and `.ts` files are compiled
// per file by TypeScript itself, with the options vitest.decorators.ts uses. The built service
// never loads this: it runs dist/, where the `.js` files exist.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export async function resolve(specifier, context, next) {
  if (specifier.endsWith('.js') && context.parentURL?.startsWith('file:') && /^\.{1,2}\//.test(specifier)) {
    const url = new URL(specifier, context.parentURL);
    if (!existsSync(fileURLToPath(url))) {
      const source = new URL(url.href.replace(/\.js$/, '.ts'));
      if (existsSync(fileURLToPath(source))) return { url: source.href, format: 'module', shortCircuit: true };
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  return { format: 'module', source: transpiled(fileName, readFileSync(fileName, 'utf8')), shortCircuit: true };
}

const COMPILER_OPTIONS = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  useDefineForClassFields: false,
  inlineSourceMap: true,
};

// Transpiling the ~400 source files costs seconds per process start; the tests that start the
// service as a process (faults, workers) start it many times. Output is cached by content hash.
const CACHE_DIR = new URL('../../node_modules/.cache/ts-loader/', import.meta.url);
const CACHE_SALT = `${ts.version}:${JSON.stringify(COMPILER_OPTIONS)}`;

function transpiled(fileName, text) {
  const key = createHash('sha256').update(CACHE_SALT).update(fileName).update(text).digest('hex');
  const cached = new URL(`${key}.js`, CACHE_DIR);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    const out = ts.transpileModule(text, { fileName, compilerOptions: COMPILER_OPTIONS }).outputText;
    try {
      mkdirSync(CACHE_DIR, { recursive: true });
      // Written aside and renamed, so a process starting in parallel never reads half a file.
      const temp = new URL(`${key}.${process.pid}.tmp`, CACHE_DIR);
      writeFileSync(temp, out);
      renameSync(temp, cached);
    } catch {
      // A read-only node_modules only costs the speed.
    }
    return out;
  }
}
