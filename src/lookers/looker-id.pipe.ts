import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from '../common/errors/app-error.js';
import { UuidParam } from '../common/validation/uuid-param.pipe.js';
import { LOOKER_NOT_FOUND } from './lookers.service.js';

export const ID_REQUIRED = 'id parameter is required';

/**
 * The `{id}` path parameter: blank is the `lookers` rule's 400 `id parameter is required`; anything that
 * cannot be a stored id is simply `looker not found` (it never reaches SQL).
 */
@Injectable()
export class LookerIdParam implements PipeTransform<string, string> {
  private readonly uuid = new UuidParam(LOOKER_NOT_FOUND);

  transform(value: string | undefined): string {
    const id = (value ?? '').trim();
    if (id === '') throw AppError.invalid(ID_REQUIRED);
    return this.uuid.transform(id);
  }
}
