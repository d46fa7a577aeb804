import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';

/**
 * What one environment variable does, written next to its validators in EnvDto: the one source of
 * docs/configuration.md (`npm run openapi` writes it, `--check` fails when a variable has none).
 */
export interface EnvDocOptions {
  /** What the variable does, in the operator's terms. */
  description: string;
  /** What the service does when the variable is unset and the class gives no value. */
  unset?: string;
  /** The values it takes, when no `IsIn` list or `<NAME> must be …` message says it. */
  allowed?: string;
}

/** One row of a configuration table. */
export interface EnvRow {
  name: string;
  default: string;
  allowed: string;
  description: string;
}

const ENV_DOC = Symbol('envDoc');

export function EnvDoc(options: EnvDocOptions): PropertyDecorator {
  return (target, property) => Reflect.defineMetadata(ENV_DOC, options, target, property);
}

/** Every variable a schema class declares, from its validation metadata (optional ones count too). */
export function declaredVariables(schema: new () => object): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(schema, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}

/**
 * The rows of a schema class, and a sentence per variable that cannot have one: a variable without
 * its EnvDoc, or one whose allowed values neither its validators nor its EnvDoc state.
 */
export function envRows(schema: new () => object): { rows: EnvRow[]; problems: string[] } {
  const defaults = new schema() as Record<string, unknown>;
  const rows: EnvRow[] = [];
  const problems: string[] = [];
  for (const name of declaredVariables(schema)) {
    const doc = Reflect.getMetadata(ENV_DOC, schema.prototype as object, name) as EnvDocOptions | undefined;
    if (!doc || doc.description.trim() === '') {
      problems.push(`${name} has no description: add @EnvDoc({ description }) beside its validators in ${schema.name}`);
      continue;
    }
    const allowed = doc.allowed ?? allowedFromValidators(schema, name);
    if (allowed === undefined) {
      problems.push(`${name} states no allowed values: give @EnvDoc an \`allowed\`, or a validator message "${name} must be …"`);
      continue;
    }
    rows.push({ name, default: defaultOf(defaults[name], doc.unset), allowed, description: doc.description });
  }
  return { rows, problems };
}

export function renderEnvTable(rows: readonly EnvRow[]): string {
  return [
    '| variable | default | allowed values | what it does |',
    '|---|---|---|---|',
    ...rows.map((r) => `| \`${r.name}\` | ${cell(r.default)} | ${cell(r.allowed)} | ${cell(r.description)} |`),
  ].join('\n');
}

/** An `IsIn` list, else the rule of the first message that reads "<NAME> must be <rule>". */
function allowedFromValidators(schema: new () => object, name: string): string | undefined {
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(schema, '', true, false)
    .filter((m) => m.propertyName === name);
  const list = metadata.find((m) => m.name === 'isIn');
  if (list && Array.isArray(list.constraints?.[0])) return (list.constraints[0] as unknown[]).map((v) => `\`${String(v)}\``).join(', ');
  const prefix = `${name} must be `;
  const message = metadata.map((m) => m.message).find((m): m is string => typeof m === 'string' && m.startsWith(prefix));
  // A URL scheme in the rule (`a postgres:// URL`) is code, not a link a reader could follow.
  return message?.slice(prefix.length).replace(/\b([a-z]+:\/\/)/g, '`$1`');
}

function defaultOf(value: unknown, unset: string | undefined): string {
  if (value === undefined) return unset ?? '_(unset)_';
  if (value === '') return 'empty';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
