import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, type HealthCheckResult, type HealthIndicatorFunction, HealthIndicatorService } from '@nestjs/terminus';
import { ApiErrorResponse, ApiMalformedBodyError } from '../common/http/api-errors.decorator.js';
import { DatabaseProbe } from './database-probe.js';
import { RedisLink } from '../redis/redis-link.js';
import { AppError, ErrorCode } from '../common/errors/app-error.js';

const REDIS_DOWN = 'redis does not answer';
import { HealthIndicatorDto, HealthStatusDto } from './dto/health-status.dto.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly probe: DatabaseProbe,
    private readonly redis: RedisLink,
  ) {}

  @Get()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ operationId: 'getHealth', summary: 'Liveness: 200 while the database (and Redis, when REDIS_URL is set) answers, else 503 naming the part that does not (exchanges do not affect it)' })
  @ApiExtraModels(HealthIndicatorDto)
  @ApiOkResponse({ type: HealthStatusDto, description: 'Database answers' })
  @ApiMalformedBodyError()
  @ApiErrorResponse(503, ['Service Unavailable', `${REDIS_DOWN}: connect ECONNREFUSED 127.0.0.1:6379`], {
    description: 'The database does not answer (`Service Unavailable`), or Redis, when REDIS_URL is set, does not (the message gives the reason)',
  })
  check(): Promise<HealthCheckResult> {
    // An instance cut off from Redis serves neither quotes nor the shared limits; the
    // The `errors` rule body's message says why.
    const { up, reason } = this.redis.state;
    if (!up) throw new AppError(ErrorCode.Unavailable, reason ?? REDIS_DOWN);
    const database = this.indicators.check('database');
    const checks: HealthIndicatorFunction[] = [() => (this.probe.up ? database.up() : database.down('database does not answer'))];
    if (this.redis.enabled) checks.push(() => this.indicators.check('redis').up());
    return this.health.check(checks);
  }
}

