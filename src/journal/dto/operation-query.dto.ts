import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { EmailField } from '../../common/validation/field-rules.js';
import { CALENDAR_UNITS, type CalendarUnit } from '../../common/time/sao-paulo.js';
import { OPERATION_STATUSES, type OperationStatus, STRATEGIES, type Strategy } from '../journal-operation.entity.js';
import { CrossRule, EmptyAsAbsent, OneOfRule, TextRule, TimestampRule } from './operation-rules.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

/** Owner only: GET one, PATCH and DELETE. */
export class OperationOwnerQueryDto {
  @ApiField.email()
  @EmailField()
  email: string;
}

/** The `csv` rule filters shared by the listing and the export. from/to apply to closedAt, or openedAt when open. */
export class OperationFiltersDto extends OperationOwnerQueryDto {
  @ApiPropertyOptional({ enum: OPERATION_STATUSES })
  @EmptyAsAbsent()
  @IsOptional()
  @OneOfRule('status', OPERATION_STATUSES)
  status?: OperationStatus;

  @ApiPropertyOptional({ enum: STRATEGIES })
  @EmptyAsAbsent()
  @IsOptional()
  @OneOfRule('strategy', STRATEGIES)
  strategy?: Strategy;

  @ApiPropertyOptional({ example: 'BTC', description: 'Case-insensitive' })
  @EmptyAsAbsent()
  @IsOptional()
  @TextRule('asset', { max: 20, transform: (s) => s.toUpperCase() })
  asset?: string;

  @ApiPropertyOptional({ example: 'import', description: 'Case-insensitive' })
  @EmptyAsAbsent()
  @IsOptional()
  @TextRule('source', { max: 32, transform: (s) => s.toLowerCase() })
  source?: string;

  @ApiPropertyOptional({ example: '2026-03-01T00:00:00-03:00', description: 'Inclusive, RFC 3339' })
  @EmptyAsAbsent()
  @IsOptional()
  @TimestampRule('from')
  from?: Date;

  @ApiPropertyOptional({ example: '2026-04-01T00:00:00-03:00', description: 'Exclusive, RFC 3339' })
  @EmptyAsAbsent()
  @IsOptional()
  @TimestampRule('to')
  @CrossRule((v, o) => (v instanceof Date && o.from instanceof Date && v <= o.from ? 'to must be after from' : undefined))
  to?: Date;
}

export class ListOperationsQueryDto extends OperationFiltersDto {
  @ApiPropertyOptional({ example: 100, description: '1 to 500, default 100' })
  @EmptyAsAbsent()
  @IsOptional()
  @Transform(toInt)
  @CrossRule((v) => (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 500 ? undefined : 'limit must be an integer from 1 to 500'))
  limit?: number;

  @ApiPropertyOptional({ example: 0, description: '0 or more, default 0' })
  @EmptyAsAbsent()
  @IsOptional()
  @Transform(toInt)
  @CrossRule((v) => (Number.isInteger(v) && (v as number) >= 0 ? undefined : 'offset must be an integer of 0 or more'))
  offset?: number;
}

const NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const toNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value.trim()) : value;
export const CAPITAL_RULE = 'capital must be a number above 0 and below 1e13';

/** The summary query: the filters without status; `to` defaults to now. */
export class SummaryQueryDto extends OmitType(OperationFiltersDto, ['status'] as const) {
  @ApiPropertyOptional({
    example: 10000,
    description: 'USD the metrics measure returns against; default the Σ entry notionals of the operations closed on the first São Paulo day of the range that has any',
  })
  @EmptyAsAbsent()
  @IsOptional()
  @Transform(toNumber)
  @CrossRule((v) => (typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 1e13 ? undefined : CAPITAL_RULE))
  capital?: number;

  @ApiPropertyOptional({ enum: CALENDAR_UNITS, description: 'Unit of breakdown, São Paulo calendar (weeks start on Monday); day when absent' })
  @EmptyAsAbsent()
  @IsOptional()
  @OneOfRule('breakdown', CALENDAR_UNITS)
  breakdown?: CalendarUnit;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: '`true` adds the trade metrics over the closed operations of the range (`metrics`, else null). Asked for, ' +
      'not computed on every summary: they read every closed operation of the range and cost decimal CPU per operation',
  })
  @EmptyAsAbsent()
  @IsOptional()
  @OneOfRule('metrics', ['true', 'false'])
  metrics?: 'true' | 'false';
}
