import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { EmailField } from '../../common/validation/field-rules.js';
import { Required } from '../../common/validation/required.decorator.js';
import {
  ALERT_KINDS, type AlertKind, DEFAULT_COOLDOWN_SECONDS, MAX_COOLDOWN_SECONDS, MIN_COOLDOWN_SECONDS,
} from '../alert-rule.types.js';
import { AlertChannelDto, AlertConditionDto } from './alert-rule-parts.dto.js';

export const MAX_RULE_NAME_LENGTH = 100;
export const RULE_MESSAGES = {
  name: `name must be a string of at most ${MAX_RULE_NAME_LENGTH} characters`,
  kind: `kind must be one of ${ALERT_KINDS.join(', ')}`,
  cooldown: `cooldownSeconds must be an integer from ${MIN_COOLDOWN_SECONDS} to ${MAX_COOLDOWN_SECONDS}`,
  enabled: 'enabled must be true or false',
} as const;

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

/** Rule fields shared by creation and update; condition and channel are checked by the service for the kind. */
export function RuleNameField(): PropertyDecorator {
  return (target, key) => {
    Transform(trim)(target, key);
    IsString({ message: RULE_MESSAGES.name })(target, key);
    MaxLength(MAX_RULE_NAME_LENGTH, { message: RULE_MESSAGES.name })(target, key);
  };
}

export function CooldownField(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsInt({ message: RULE_MESSAGES.cooldown })(target, key);
    Min(MIN_COOLDOWN_SECONDS, { message: RULE_MESSAGES.cooldown })(target, key);
    Max(MAX_COOLDOWN_SECONDS, { message: RULE_MESSAGES.cooldown })(target, key);
  };
}

export class CreateAlertRuleDto {
  @ApiField.email()
  @EmailField()
  email: string;

  @ApiField.string({ example: 'BTC majors above 0.3 %', maxLength: MAX_RULE_NAME_LENGTH })
  @Required()
  @RuleNameField()
  name: string;

  @ApiField.enum(ALERT_KINDS)
  @Required()
  @IsIn(ALERT_KINDS, { message: RULE_MESSAGES.kind })
  kind: AlertKind;

  @ApiProperty({ type: AlertConditionDto, required: false, description: 'Omitted: {} (every route of the kind; feed: 2 minutes)' })
  @Allow()
  condition?: unknown;

  @ApiProperty({ type: AlertChannelDto })
  @Required()
  @Allow()
  channel: unknown;

  @ApiField.integer({ required: false, minimum: MIN_COOLDOWN_SECONDS, maximum: MAX_COOLDOWN_SECONDS, example: 300, description: `Default ${DEFAULT_COOLDOWN_SECONDS}` })
  @CooldownField()
  cooldownSeconds?: number;

  @ApiField.boolean({ required: false, example: true, description: 'Default true' })
  @IsOptional()
  @IsBoolean({ message: RULE_MESSAGES.enabled })
  enabled?: boolean;
}
