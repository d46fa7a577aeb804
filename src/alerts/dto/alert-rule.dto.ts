import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';
import type { AlertRuleEntity } from '../alert-rule.entity.js';
import { ALERT_KINDS, type AlertKind } from '../alert-rule.types.js';
import { maskedChannel } from '../alert-secrets.js';
import type { AlertChannel } from '../alert-rule.types.js';
import { AlertChannelDto, AlertConditionDto } from './alert-rule-parts.dto.js';

/** A stored rule as answered: the channel's secrets masked (`***` and the last 4 characters). */
export class AlertRuleDto {
  @ApiField.uuid()
  id: string;

  @ApiField.email()
  email: string;

  @ApiField.string({ example: 'BTC majors above 0.3 %' })
  name: string;

  @ApiField.enum(ALERT_KINDS)
  kind: AlertKind;

  @ApiProperty({ type: AlertConditionDto, description: 'Canonical form: tickers BASE-QUOTE, lists sorted' })
  condition: object;

  @ApiProperty({ type: AlertChannelDto })
  channel: object;

  @ApiField.integer({ example: 300 })
  cooldownSeconds: number;

  @ApiField.boolean({ example: true })
  enabled: boolean;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why the service disabled the rule (its channel failed for 24 h); null otherwise' })
  disabledReason: string | null;

  @ApiField.unixMillis({ description: 'Creation time, Unix milliseconds' })
  timestamp: number;

  /** `channel` is the rule's channel opened: the stored one holds its secret sealed. */
  static from(e: AlertRuleEntity, channel: AlertChannel): AlertRuleDto {
    return {
      id: e.id,
      email: e.email,
      name: e.name,
      kind: e.kind,
      condition: e.condition,
      channel: maskedChannel(channel),
      cooldownSeconds: e.cooldownSeconds,
      enabled: e.enabled,
      disabledReason: e.disabledReason,
      timestamp: e.createdAt.getTime(),
    };
  }
}
