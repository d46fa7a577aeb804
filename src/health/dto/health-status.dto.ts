import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ApiField } from '../../common/openapi/api-field.decorator.js';

/** One check of the liveness answer (terminus' indicator result). */
export class HealthIndicatorDto {
  @ApiField.enum(['up', 'down'], { example: 'up' })
  status: 'up' | 'down';

  @ApiField.integer({ required: false, minimum: 0, example: 2, description: 'How long the check took, ms' })
  responseTime?: number;

  @ApiField.string({ required: false, example: 'timeout of 3000ms exceeded', description: 'Why the check failed' })
  message?: string;
}

const byCheck = (description: string): PropertyDecorator =>
  ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(HealthIndicatorDto) },
    example: { database: { status: 'up' } },
    description,
  });

/** GET /health while the database answers (rules: operating). */
export class HealthStatusDto {
  @ApiField.enum(['ok'])
  status: 'ok';

  @byCheck('Checks that passed, by name (`database`)')
  info: Record<string, HealthIndicatorDto>;

  @byCheck('Checks that failed, by name (empty while healthy)')
  error: Record<string, HealthIndicatorDto>;

  @byCheck('Every check, by name')
  details: Record<string, HealthIndicatorDto>;
}
