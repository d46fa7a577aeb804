import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { getMetadataStorage } from 'class-validator';
import type { Request } from 'express';
import { AppError, ErrorCode } from '../errors/app-error.js';
import { REQUIRED_CONSTRAINT } from './required.decorator.js';

declare global {
  interface String {
    /** ES2024 (Node 20+); the project's lib is ES2023. */
    isWellFormed(): boolean;
  }
}

/** Objects and arrays inside each other: the deepest body the API takes is 2 (`cryptos: []`). */
export const MAX_BODY_DEPTH = 8;

export const BODY_TOO_DEEP = `request body must not be nested more than ${MAX_BODY_DEPTH} levels deep`;
export const JSON_CONTENT_TYPE_REQUIRED = 'Content-Type must be application/json';

/** A member name safe to repeat in a message; anything else is input we do not echo. */
const SAFE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * What no handler can take safely, whatever its DTO: NUL characters (PostgreSQL cannot store
 * them), lone surrogates (ill-formed UTF-16: class-validator's isEmail throws on them), numbers
 * that JSON.parse turned into Infinity (`1e999`), and nesting deep enough to exhaust the stack
 * of class-transformer's recursion. The walk is iterative, so its own depth is no risk.
 * Returns the message for the first problem, naming the field by its path only.
 */
export function bodyProblem(body: unknown): string | undefined {
  if (typeof body === 'string') return textProblem(body, 'request body');
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: body, path: '', depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, path, depth } = item;
    if (typeof value === 'string') {
      const problem = textProblem(value, path || 'request body');
      if (problem) return problem;
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return `${path || 'request body'} must be a finite number`;
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_BODY_DEPTH) return BODY_TOO_DEEP;
      const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(value);
      // Pushed in reverse so the first member is examined first.
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, child] = entries[i] as readonly [string, unknown];
        if (!Array.isArray(value)) {
          const problem = textProblem(key, 'member names');
          if (problem) return problem;
        }
        stack.push({ value: child, path: joinPath(path, key, Array.isArray(value)), depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/**
 * Query parameters: a parameter given with an empty value is refused (`from=` is not "no from"),
 * and so is any value a body may not hold. A parameter the route requires is left to its DTO,
 * whose the `errors` rule / the API contract text (`email parameter is required`) covers the empty value too.
 */
export function queryProblem(query: Record<string, unknown>, required: ReadonlySet<string> = new Set()): string | undefined {
  for (const [name, raw] of Object.entries(query)) {
    const label = SAFE_NAME.test(name) ? name : 'a query parameter';
    const nameProblem = textProblem(name, 'query parameter names');
    if (nameProblem) return nameProblem;
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (typeof value !== 'string') continue;
      if (value === '' && !required.has(name)) return `${label} must not be empty`;
      const problem = textProblem(value, label);
      if (problem) return problem;
    }
  }
  return undefined;
}

function textProblem(text: string, label: string): string | undefined {
  if (text.includes('\u0000')) return `${label} must not contain NUL characters`;
  if (!text.isWellFormed()) return `${label} must be well-formed Unicode (no lone surrogates)`;
  return undefined;
}

function joinPath(path: string, key: string, inArray: boolean): string {
  if (inArray) return `${path}${key}`;
  const name = SAFE_NAME.test(key) ? key : '(member)';
  return path ? `${path}.${name}` : name;
}

/** A request that carries a body no parser read: its content type is one the route does not take. */
function unreadBody(req: Request): boolean {
  const length = Number(req.headers['content-length'] ?? 0);
  const carriesBody = length > 0 || req.headers['transfer-encoding'] !== undefined;
  return carriesBody && req.body === undefined && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method);
}

/**
 * The one input guard, global: it runs after every body parser and before any pipe,
 * so nothing reaches class-transformer, the validator or the database unchecked.
 */
@Injectable()
export class InputGuard implements CanActivate {
  private readonly requiredByHandler = new WeakMap<object, ReadonlySet<string>>();

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (unreadBody(req)) throw new AppError(ErrorCode.UnsupportedMediaType, JSON_CONTENT_TYPE_REQUIRED);
    const query = req.query as Record<string, unknown>;
    const problem = queryProblem(query, this.requiredQueryNames(context)) ?? (req.body === undefined ? undefined : bodyProblem(req.body));
    if (problem) throw AppError.invalid(problem);
    return true;
  }

  /** The members the handler's `@Query()` DTO marks `@Required()`, read once per handler. */
  private requiredQueryNames(context: ExecutionContext): ReadonlySet<string> {
    const handler = context.getHandler();
    let names = this.requiredByHandler.get(handler);
    if (!names) {
      names = new Set(queryDtosOf(context).flatMap(requiredMembersOf));
      this.requiredByHandler.set(handler, names);
    }
    return names;
  }
}

function queryDtosOf(context: ExecutionContext): (new () => unknown)[] {
  const controller = context.getClass();
  const handler = context.getHandler().name;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<string, { index: number; data?: unknown }>;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype as object, handler) ?? []) as unknown[];
  return Object.entries(args)
    .filter(([key, arg]) => key.startsWith(`${RouteParamtypes.QUERY}:`) && arg.data === undefined)
    .map(([, arg]) => types[arg.index])
    .filter((type): type is new () => unknown => typeof type === 'function');
}

function requiredMembersOf(dto: new () => unknown): string[] {
  return getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .filter((m) => m.name === REQUIRED_CONSTRAINT)
    .map((m) => m.propertyName);
}
