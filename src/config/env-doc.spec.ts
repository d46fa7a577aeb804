import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { EnvDoc, envRows, renderEnvTable } from './env-doc.js';

class DocumentedEnv {
  @EnvDoc({ description: 'how often it ticks' })
  @IsOptional()
  @IsInt({ message: 'TICK_MS must be an integer from 10 to 1000' })
  @Min(10, { message: 'TICK_MS must be an integer from 10 to 1000' })
  @Max(1000, { message: 'TICK_MS must be an integer from 10 to 1000' })
  TICK_MS: number = 100;

  @EnvDoc({ description: 'what it logs' })
  @IsOptional()
  @IsIn(['quiet', 'loud'], { message: 'MOOD must be quiet or loud' })
  MOOD: string = 'quiet';

  @EnvDoc({ description: 'where it writes', unset: 'nowhere', allowed: 'a folder path' })
  @IsOptional()
  @IsString()
  OUT_DIR?: string = undefined;
}

/** DocumentedEnv with one variable added the careless way: validators, no description. */
class CarelessEnv extends DocumentedEnv {
  @IsOptional()
  @IsInt({ message: 'RETRIES must be an integer' })
  RETRIES: number = 3;
}

class UnstatedEnv {
  @EnvDoc({ description: 'a name' })
  @IsOptional()
  @IsString()
  NAME: string = 'x';
}

describe('envRows', () => {
  it('reads each row from the class: default from its initialiser, allowed from IsIn or the "<NAME> must be" message', () => {
    expect(envRows(DocumentedEnv)).toEqual({
      problems: [],
      rows: [
        { name: 'TICK_MS', default: '`100`', allowed: 'an integer from 10 to 1000', description: 'how often it ticks' },
        { name: 'MOOD', default: '`quiet`', allowed: '`quiet`, `loud`', description: 'what it logs' },
        { name: 'OUT_DIR', default: 'nowhere', allowed: 'a folder path', description: 'where it writes' },
      ],
    });
  });

  it('names a variable declared without its description, and gives it no row', () => {
    const { rows, problems } = envRows(CarelessEnv);
    expect(problems).toEqual(['RETRIES has no description: add @EnvDoc({ description }) beside its validators in CarelessEnv']);
    expect(rows.map((r) => r.name)).not.toContain('RETRIES');
  });

  it('names a variable whose allowed values nothing states', () => {
    expect(envRows(UnstatedEnv).problems).toEqual([
      'NAME states no allowed values: give @EnvDoc an `allowed`, or a validator message "NAME must be …"',
    ]);
  });

  it('renders a markdown table, escaping pipes', () => {
    expect(renderEnvTable([{ name: 'A', default: '`1`', allowed: 'x | y', description: 'd' }])).toBe(
      ['| variable | default | allowed values | what it does |', '|---|---|---|---|', '| `A` | `1` | x \\| y | d |'].join('\n'),
    );
  });
});
