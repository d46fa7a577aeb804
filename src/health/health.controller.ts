import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiMalformedBodyError } from '../common/http/api-errors.decorator.js';
import { HealthIndicatorDto, HealthStatusDto } from './dto/health-status.dto.js';
import { HealthCheck, HealthCheckService, type HealthCheckResult, TypeOrmHealthIndicator } from '@nestjs/terminus';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
  ) {}

  @Get()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ operationId: 'getHealth', summary: 'Liveness: 200 while the database answers, else 503 (exchanges do not affect it)' })
  @ApiExtraModels(HealthIndicatorDto)
  @ApiOkResponse({ type: HealthStatusDto, description: 'Database answers' })
  @ApiMalformedBodyError()
  @ApiErrorResponse(503, ['Service Unavailable'], { description: 'The database does not answer' })
  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.db.pingCheck('database', { timeout: 3000 })]);
  }
}

