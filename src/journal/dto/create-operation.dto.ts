import { ApiPropertyOptional } from '@nestjs/swagger';
import { EmailField } from '../../common/validation/field-rules.js';
import { Required } from '../../common/validation/required.decorator.js';
import { STRATEGIES, type Strategy } from '../journal-operation.entity.js';
import {
  BooleanRule,
  CrossRule,
  isPositive,
  NumberRule,
  OneOfRule,
  RequiredWhen,
  TextRule,
  TimestampRule,
} from './operation-rules.js';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

const upper = (s: string): string => s.toUpperCase();
const lower = (s: string): string => s.toLowerCase();
const closing = (o: Record<string, unknown>): boolean => o.closedAt !== undefined && o.closedAt !== null;

/**
 * A journal operation as a client writes it (rules: journal). Field order is the order of the checks:
 * required fields in the `journal` rule's order come first (the pipe reports the first missing one), then
 * the first other problem in this order.
 */
export class CreateOperationDto {
  @ApiField.email()
  @EmailField()
  email: string;

  @ApiField.enum(STRATEGIES)
  @Required()
  @OneOfRule('strategy', STRATEGIES)
  strategy: Strategy;

  @ApiField.string({ example: 'BTC', maxLength: 20, pattern: '^[A-Za-z0-9]+$', description: 'Base asset, stored upper case' })
  @Required()
  @TextRule('asset', { max: 20, pattern: /^[A-Z0-9]+$/, patternMessage: 'asset must be letters or digits, such as BTC', transform: upper })
  asset: string;

  @ApiField.string({ example: 'binance', maxLength: 64, description: 'Stored lower case' })
  @Required()
  @TextRule('buyExchange', { max: 64, transform: lower })
  buyExchange: string;

  @ApiField.string({ example: 'binance', maxLength: 64, description: 'Stored lower case' })
  @Required()
  @TextRule('sellExchange', { max: 64, transform: lower })
  sellExchange: string;

  @ApiField.dateTime({ example: '2026-03-01T09:30:00-03:00', description: 'RFC 3339 with an offset' })
  @Required()
  @TimestampRule('openedAt')
  openedAt: Date;

  @ApiPropertyOptional({ example: 0.5, description: 'Long leg (bought); ≥ 0, default 0' })
  @RequiredWhen((o) => o.shortQuantity === undefined || o.shortQuantity === null, 'quantity is required')
  @NumberRule('quantity', 'nonNegative')
  quantity?: number;

  @ApiPropertyOptional({ example: 0.5, description: 'Short leg (sold); ≥ 0, default 0. One of the two must be > 0' })
  @NumberRule('shortQuantity', 'nonNegative')
  shortQuantity?: number;

  @ApiField.number({ required: false, nullable: true, minimum: 0, exclusiveMinimum: true, example: 64000, description: 'Required when quantity > 0' })
  @RequiredWhen((o) => isPositive(o.quantity), 'entryBuyPrice is required')
  @NumberRule('entryBuyPrice', 'positive')
  entryBuyPrice?: number | null;

  @ApiField.number({ required: false, nullable: true, minimum: 0, exclusiveMinimum: true, example: 64100, description: 'Required when shortQuantity > 0' })
  @RequiredWhen((o) => isPositive(o.shortQuantity), 'entrySellPrice is required')
  @NumberRule('entrySellPrice', 'positive')
  entrySellPrice?: number | null;

  @ApiField.dateTime({ required: false, nullable: true, example: '2026-03-02T10:00:00-03:00', description: 'Given: the operation is closed' })
  @TimestampRule('closedAt')
  @CrossRule((v, o) =>
    v instanceof Date && o.openedAt instanceof Date && v < o.openedAt ? 'closedAt must not be before openedAt' : undefined,
  )
  closedAt?: Date | null;

  @ApiField.number({ required: false, nullable: true, minimum: 0, exclusiveMinimum: true, example: 64500, description: 'Required to close when quantity > 0' })
  @RequiredWhen((o) => closing(o) && isPositive(o.quantity), 'exitSellPrice is required')
  @NumberRule('exitSellPrice', 'positive')
  exitSellPrice?: number | null;

  @ApiField.number({ required: false, nullable: true, minimum: 0, exclusiveMinimum: true, example: 64450, description: 'Required to close when shortQuantity > 0' })
  @RequiredWhen((o) => closing(o) && isPositive(o.shortQuantity), 'exitBuyPrice is required')
  @NumberRule('exitBuyPrice', 'positive')
  exitBuyPrice?: number | null;

  @ApiPropertyOptional({ example: 12.8, description: '≥ 0, default 0' })
  @NumberRule('tradingFees', 'nonNegative')
  tradingFees?: number;

  @ApiPropertyOptional({ example: 0, description: '≥ 0, default 0' })
  @NumberRule('withdrawalFees', 'nonNegative')
  withdrawalFees?: number;

  @ApiPropertyOptional({ example: 3.2, description: 'Signed: positive received, negative paid; default 0' })
  @NumberRule('funding', 'any')
  funding?: number;

  @ApiPropertyOptional({ example: false, description: 'Some fee is an estimate; default false' })
  @BooleanRule('feesEstimated')
  feesEstimated?: boolean;

  @ApiField.string({ required: false, maxLength: 32, pattern: '^[A-Za-z0-9_-]*$', example: 'manual', description: 'Lower-case word, at most 32 characters; default manual' })
  @TextRule('source', {
    max: 32,
    pattern: /^[a-z0-9_-]*$/,
    patternMessage: 'source must be a lower-case word (letters, digits, _ or -)',
    transform: lower,
  })
  source?: string;

  @ApiField.string({ required: false, nullable: true, example: 'binance-7781', description: 'Unique per (email, source); at most 128 characters' })
  @TextRule('externalId', { max: 128 })
  externalId?: string | null;

  @ApiField.string({ required: false, nullable: true, example: 'funding flipped negative, closed early', description: 'At most 2000 characters' })
  @TextRule('notes', { max: 2000, trim: false })
  notes?: string | null;
}
