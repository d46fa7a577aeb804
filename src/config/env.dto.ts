import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { LOG_LEVELS, type LogLevel } from './app-config.js';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

/**
 * Every environment variable the service reads, with its rule. The messages name the variable
 * so a bad deployment fails at start with a sentence an operator can act on.
 * Keep in step with .env.example and the README's configuration table.
 */
export class EnvDto {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer from 1 to 65535' })
  @Min(1, { message: 'PORT must be an integer from 1 to 65535' })
  @Max(65535, { message: 'PORT must be an integer from 1 to 65535' })
  PORT: number = 3000;

  @IsOptional()
  @IsString()
  HOST: string = '0.0.0.0';

  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  @Matches(/\S/, { message: 'DB_PATH must be a folder path or :memory:' })
  DB_PATH: string = './data/pglite';

  @IsOptional()
  @Matches(/^(\*|[^,\s]+(,[^,\s]+)*)$/, {
    message: 'CORS_ORIGINS must be * or a comma-separated list of origins',
  })
  CORS_ORIGINS: string = '*';

  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'TRUST_PROXY must be 0, 1, true or false' })
  TRUST_PROXY: string = '0';
}
