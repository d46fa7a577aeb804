import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FailureMessage } from '../common/errors/failure-message.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { ApiIdParam } from '../common/openapi/api-field.decorator.js';
import { CHANNEL_MESSAGES, CONDITION_MESSAGES } from './alert-rule-input.js';
import { AlertRuleIdParam, RULE_ID_REQUIRED } from './alert-rule-id.pipe.js';
import { MAX_RULES_PER_EMAIL } from './alert-rule.types.js';
import { TARGET_MESSAGES } from './alert-targets.js';
import { ALERT_RULE_NOT_FOUND, tooManyRulesMessage } from './alerts.constants.js';
import { AlertsService } from './alerts.service.js';
import { AlertDeliveryDto } from './dto/alert-delivery.dto.js';
import { AlertOwnerQueryDto } from './dto/alert-owner-query.dto.js';
import { AlertRuleDto } from './dto/alert-rule.dto.js';
import { CreateAlertRuleDto, RULE_MESSAGES } from './dto/create-alert-rule.dto.js';
import { UpdateAlertRuleDto } from './dto/update-alert-rule.dto.js';

const OWNER_ERRORS = ['email parameter is required', 'email is invalid'];
const RULE_ERRORS = [
  RULE_MESSAGES.name, RULE_MESSAGES.kind, RULE_MESSAGES.cooldown, RULE_MESSAGES.enabled,
  CONDITION_MESSAGES.object, CONDITION_MESSAGES.minAbsAprRequired, CONDITION_MESSAGES.minAbsApr, CONDITION_MESSAGES.minutes,
  'condition.<member> is not a <kind> condition (allowed: …)', 'minProfit must be a number from 0 to 100',
  'minNetProfit must be a number from -100 to 100', 'transferable must be true or false', 'exchanges must be a comma list of …',
  'tickers must be a comma list of at most 100 tickers such as BTC-USDT',
  ...Object.values(CHANNEL_MESSAGES),
  ...TARGET_MESSAGES.url, ...TARGET_MESSAGES.webhookUrl,
];

@ApiTags('alerts')
@Controller('v1/alerts')
export class AlertsController {
  constructor(private readonly alerts: AlertsService) {}

  @Post('rules')
  @HttpCode(HttpStatus.CREATED)
  @FailureMessage('Failed to create alert rule')
  @ApiOperation({
    operationId: 'createAlertRule',
    summary: 'Create an alert rule: a condition on opportunities, funding or feeds, pushed to a webhook, Telegram or Discord',
    description: `At most ${MAX_RULES_PER_EMAIL} rules per email. A channel is not contacted here: an unreachable one is stored and its deliveries fail visibly. `
      + 'A webhook or Discord URL must be https and every address its host resolves to public (not loopback, private, link-local, '
      + 'carrier-grade NAT, multicast, unique-local, documentation or otherwise reserved) unless ALERT_TARGETS_ALLOW_PRIVATE=1; '
      + 'the address is checked again before each send.',
  })
  @ApiCreatedResponse({ type: AlertRuleDto })
  @ApiErrors({
    400: ['Invalid request body', 'email is required', 'email is invalid', 'name is required', 'kind is required', 'channel is required', ...RULE_ERRORS, tooManyRulesMessage(MAX_RULES_PER_EMAIL)],
    500: ['Failed to create alert rule'],
  })
  create(@Body() dto: CreateAlertRuleDto): Promise<AlertRuleDto> {
    return this.alerts.create(dto);
  }

  @Get('rules')
  @FailureMessage('Failed to get alert rules')
  @ApiOperation({ operationId: 'listAlertRules', summary: "A user's alert rules, newest first, secrets masked" })
  @ApiOkResponse({ type: [AlertRuleDto] })
  @ApiErrors({ 400: OWNER_ERRORS, 500: ['Failed to get alert rules'] })
  list(@Query() query: AlertOwnerQueryDto): Promise<AlertRuleDto[]> {
    return this.alerts.list(query.email);
  }

  @Get('rules/{:id}')
  @FailureMessage('Failed to get alert rule')
  @ApiOperation({ operationId: 'getAlertRule', summary: "One of the user's alert rules, secrets masked" })
  @ApiIdParam('Identifier of the rule')
  @ApiOkResponse({ type: AlertRuleDto })
  @ApiErrors({ 400: [RULE_ID_REQUIRED, ...OWNER_ERRORS], 404: [ALERT_RULE_NOT_FOUND], 500: ['Failed to get alert rule'] })
  get(@Param('id', AlertRuleIdParam) id: string, @Query() query: AlertOwnerQueryDto): Promise<AlertRuleDto> {
    return this.alerts.get(id, query.email);
  }

  @Patch('rules/{:id}')
  @FailureMessage('Failed to update alert rule')
  @ApiOperation({ operationId: 'updateAlertRule', summary: 'Change a rule (creation rules apply); enabling it again clears disabledReason' })
  @ApiIdParam('Identifier of the rule')
  @ApiOkResponse({ type: AlertRuleDto })
  @ApiErrors({
    400: [RULE_ID_REQUIRED, ...OWNER_ERRORS, 'condition is required when kind changes', ...RULE_ERRORS],
    404: [ALERT_RULE_NOT_FOUND],
    500: ['Failed to update alert rule'],
  })
  update(@Param('id', AlertRuleIdParam) id: string, @Query() query: AlertOwnerQueryDto, @Body() dto: UpdateAlertRuleDto): Promise<AlertRuleDto> {
    return this.alerts.update(id, query.email, dto);
  }

  @Delete('rules/{:id}')
  @HttpCode(HttpStatus.NO_CONTENT)
  @FailureMessage('Failed to delete alert rule')
  @ApiOperation({ operationId: 'deleteAlertRule', summary: 'Delete a rule; its pending notifications are not sent' })
  @ApiIdParam('Identifier of the rule')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ 400: [RULE_ID_REQUIRED, ...OWNER_ERRORS], 404: [ALERT_RULE_NOT_FOUND], 500: ['Failed to delete alert rule'] })
  remove(@Param('id', AlertRuleIdParam) id: string, @Query() query: AlertOwnerQueryDto): Promise<void> {
    return this.alerts.remove(id, query.email);
  }

  @Get('deliveries')
  @FailureMessage('Failed to get alert deliveries')
  @ApiOperation({
    operationId: 'listAlertDeliveries',
    summary: "The user's last 100 notifications, newest first: status, attempts and last error",
  })
  @ApiOkResponse({ type: [AlertDeliveryDto] })
  @ApiErrors({ 400: OWNER_ERRORS, 500: ['Failed to get alert deliveries'] })
  deliveries(@Query() query: AlertOwnerQueryDto): Promise<AlertDeliveryDto[]> {
    return this.alerts.deliveries(query.email);
  }
}
