import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from '../errors/app-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that cannot be a stored id is simply not found (it never reaches SQL). */
@Injectable()
export class UuidParam implements PipeTransform<string, string> {
  constructor(private readonly notFoundMessage: string) {}

  transform(value: string): string {
    if (!UUID.test(value)) throw AppError.notFound(this.notFoundMessage);
    return value.toLowerCase();
  }
}
