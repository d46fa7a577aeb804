import ts from 'typescript';
import type { Plugin } from 'vite';

/**
 * Compiles TypeScript with TypeScript itself (per file), so Nest's dependency injection gets
 * the decorator metadata (`design:paramtypes`) that vite's own transform does not emit.
 * TypeScript is already a dev dependency; a native compiler such as SWC needs per-platform
 * binaries that `npm ci` cannot always resolve from a mirror.
 */
export function typescriptDecorators(): Plugin {
  return {
    name: 'typescript-decorators',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('.ts') || id.includes('/node_modules/')) return null;
      const out = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: {
          target: ts.ScriptTarget.ES2023,
          module: ts.ModuleKind.ESNext,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          useDefineForClassFields: false,
          sourceMap: true,
          inlineSources: true,
        },
      });
      return { code: out.outputText, map: out.sourceMapText ?? null };
    },
  };
}
