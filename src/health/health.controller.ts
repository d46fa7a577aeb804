import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthCheckResult, HealthIndicatorService } from '@nestjs/terminus';
import { DatabaseProbe } from './database-probe.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly probe: DatabaseProbe,
  ) {}

  @Get()
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness: 200 while the database answers (pinged every second), else 503 (exchanges do not affect it)' })
  @ApiResponse({ status: 200, description: 'Database answers' })
  @ApiResponse({ status: 503, description: 'Database does not answer' })
  check(): Promise<HealthCheckResult> {
    const database = this.indicators.check('database');
    return this.health.check([() => (this.probe.up ? database.up() : database.down('database does not answer'))]);
  }
}
