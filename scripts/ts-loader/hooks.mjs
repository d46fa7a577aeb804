// Module hooks that let a worker thread run straight from the TypeScript sources (tests, dev):
// a `.js` import with no such file resolves to the `.ts` beside it, and `.ts` files are compiled
// per file by TypeScript itself, with the options vitest.decorators.ts uses. The built service
// never loads this: it runs dist/, where the `.js` files exist.
import { existsSync, readFileSync } from 'node:fs';
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
  const out = ts.transpileModule(readFileSync(fileName, 'utf8'), {
    fileName,
    compilerOptions: {
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.ESNext,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
      inlineSourceMap: true,
    },
  });
  return { format: 'module', source: out.outputText, shortCircuit: true };
}
