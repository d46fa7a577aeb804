import { ApiProperty } from '@nestjs/swagger';
import { Allow, IsBoolean, IsIn, IsOptional } from 'class-validator';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import { ALERT_KINDS, type AlertKind, MAX_COOLDOWN_SECONDS, MIN_COOLDOWN_SECONDS } from '../alert-rule.types.js';
import { AlertChannelDto, AlertConditionDto } from './alert-rule-parts.dto.js';
import { CooldownField, MAX_RULE_NAME_LENGTH, RULE_MESSAGES, RuleNameField } from './create-alert-rule.dto.js';

/** PATCH body: any member; a new kind needs a condition for it; a channel is replaced whole. */
export class UpdateAlertRuleDto {
  @ApiField.string({ required: false, example: 'ETH only', maxLength: MAX_RULE_NAME_LENGTH })
  @IsOptional()
  @RuleNameField()
  name?: string;

  @ApiField.enum(ALERT_KINDS, { required: false })
  @IsOptional()
  @IsIn(ALERT_KINDS, { message: RULE_MESSAGES.kind })
  kind?: AlertKind;

  @ApiProperty({ type: AlertConditionDto, required: false })
  @Allow()
  condition?: unknown;

  @ApiProperty({ type: AlertChannelDto, required: false, description: 'Replaces the channel whole (secrets must be sent again)' })
  @Allow()
  channel?: unknown;

  @ApiField.integer({ required: false, minimum: MIN_COOLDOWN_SECONDS, maximum: MAX_COOLDOWN_SECONDS, example: 600 })
  @CooldownField()
  cooldownSeconds?: number;

  @ApiField.boolean({ required: false, example: true, description: 'true also clears a disabledReason' })
  @IsOptional()
  @IsBoolean({ message: RULE_MESSAGES.enabled })
  enabled?: boolean;
}
