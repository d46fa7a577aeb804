import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthCheckResult, HealthIndicatorService } from '@nestjs/terminus';
import { ApiErrorResponse, ApiMalformedBodyError } from '../common/http/api-errors.decorator.js';
import { DatabaseProbe } from './database-probe.js';
import { HealthIndicatorDto, HealthStatusDto } from './dto/health-status.dto.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly probe: DatabaseProbe,
  ) {}

  @Get()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ operationId: 'getHealth', summary: 'Liveness: 200 while the database answers (pinged every second), else 503 (exchanges do not affect it)' })
  @ApiExtraModels(HealthIndicatorDto)
  @ApiOkResponse({ type: HealthStatusDto, description: 'Database answers' })
  @ApiMalformedBodyError()
  @ApiErrorResponse(503, ['Service Unavailable'], { description: 'The database does not answer' })
  check(): Promise<HealthCheckResult> {
    const database = this.indicators.check('database');
    return this.health.check([() => (this.probe.up ? database.up() : database.down('database does not answer'))]);
  }
}

