import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from '../common/errors/app-error.js';
import { UuidParam } from '../common/validation/uuid-param.pipe.js';
import { ALERT_RULE_NOT_FOUND } from './alerts.constants.js';

export const RULE_ID_REQUIRED = 'id parameter is required';

/** The `{id}` of a rule: blank is a 400; anything that cannot be a stored id is `alert rule not found`. */
@Injectable()
export class AlertRuleIdParam implements PipeTransform<string, string> {
  private readonly uuid = new UuidParam(ALERT_RULE_NOT_FOUND);

  transform(value: string | undefined): string {
    const id = (value ?? '').trim();
    if (id === '') throw AppError.invalid(RULE_ID_REQUIRED);
    return this.uuid.transform(id);
  }
}
