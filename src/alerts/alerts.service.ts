import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Subject } from 'rxjs';
import type { DataSource, Repository } from 'typeorm';
import { AppError } from '../common/errors/app-error.js';
import type { Keyring } from '../common/secrets/secret-box.js';
import { SECRETS_KEYRING } from '../common/secrets/secrets.module.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { AlertNotificationEntity } from './alert-notification.entity.js';
import { parseChannel, parseCondition } from './alert-rule-input.js';
import { AlertRuleEntity } from './alert-rule.entity.js';
import { openedChannel, storedChannel } from './alert-secrets.js';
import { type AlertChannel, DEFAULT_COOLDOWN_SECONDS, MAX_RULES_PER_EMAIL } from './alert-rule.types.js';
import { assertChannelTarget, type TargetPolicy } from './alert-targets.js';
import { ALERT_RULE_NOT_FOUND, ALERT_TARGET_POLICY, DELIVERIES_LIMIT, tooManyRulesMessage } from './alerts.constants.js';
import { AlertDeliveryDto } from './dto/alert-delivery.dto.js';
import { AlertRuleDto } from './dto/alert-rule.dto.js';
import type { CreateAlertRuleDto } from './dto/create-alert-rule.dto.js';
import type { UpdateAlertRuleDto } from './dto/update-alert-rule.dto.js';

/** Rules owned by an email (as lookers are), and the owner's deliveries. */
@Injectable()
export class AlertsService {
  private readonly exchanges: readonly string[];
  private readonly changedSubject = new Subject<void>();
  /** A rule was created, changed or deleted in this process (the evaluator reloads at once). */
  readonly changed = this.changedSubject.asObservable();

  constructor(
    @InjectRepository(AlertRuleEntity) private readonly rules: Repository<AlertRuleEntity>,
    @InjectRepository(AlertNotificationEntity) private readonly outbox: Repository<AlertNotificationEntity>,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(ALERT_TARGET_POLICY) private readonly targets: TargetPolicy,
    @Inject(SECRETS_KEYRING) private readonly keyring: Keyring,
  ) {
    this.exchanges = config.marketData.exchanges;
  }

  /** The cap is checked under a per-email lock, so concurrent creations cannot pass it together. */
  async create(dto: CreateAlertRuleDto): Promise<AlertRuleDto> {
    const condition = parseCondition(dto.kind, dto.condition, this.exchanges);
    const channel = await this.channel(dto.channel);
    const saved = await this.db.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`alerts:${dto.email}`]);
      const count = await m.count(AlertRuleEntity, { where: { email: dto.email } });
      if (count >= MAX_RULES_PER_EMAIL) throw AppError.invalid(tooManyRulesMessage(MAX_RULES_PER_EMAIL));
      const repo = m.getRepository(AlertRuleEntity);
      return repo.save(repo.create({
        email: dto.email,
        name: dto.name,
        kind: dto.kind,
        condition,
        channel: storedChannel(channel, this.keyring),
        cooldownSeconds: dto.cooldownSeconds ?? DEFAULT_COOLDOWN_SECONDS,
        enabled: dto.enabled ?? true,
        disabledReason: null,
      }));
    });
    this.changedSubject.next();
    return AlertRuleDto.from(saved, channel);
  }

  async list(email: string): Promise<AlertRuleDto[]> {
    const rows = await this.rules.find({ where: { email }, order: { createdAt: 'DESC', id: 'ASC' } });
    return rows.map((row) => this.answer(row));
  }

  async get(id: string, email: string): Promise<AlertRuleDto> {
    return this.answer(await this.owned(id, email));
  }

  async update(id: string, email: string, dto: UpdateAlertRuleDto): Promise<AlertRuleDto> {
    const rule = await this.owned(id, email);
    if (dto.kind !== undefined && dto.kind !== rule.kind && dto.condition === undefined) {
      throw AppError.invalid('condition is required when kind changes');
    }
    const kind = dto.kind ?? rule.kind;
    if (dto.condition !== undefined) rule.condition = parseCondition(kind, dto.condition, this.exchanges);
    if (dto.channel !== undefined) rule.channel = storedChannel(await this.channel(dto.channel), this.keyring);
    rule.kind = kind;
    if (dto.name !== undefined) rule.name = dto.name;
    if (dto.cooldownSeconds !== undefined) rule.cooldownSeconds = dto.cooldownSeconds;
    if (dto.enabled !== undefined) {
      rule.enabled = dto.enabled;
      if (dto.enabled) rule.disabledReason = null;
    }
    const saved = await this.rules.save(rule);
    this.changedSubject.next();
    return this.answer(saved);
  }

  async remove(id: string, email: string): Promise<void> {
    const result = await this.rules.delete({ id, email });
    if (!result.affected) throw AppError.notFound(ALERT_RULE_NOT_FOUND);
    this.changedSubject.next();
  }

  /** The owner's last deliveries, newest first. */
  async deliveries(email: string): Promise<AlertDeliveryDto[]> {
    const rows = await this.outbox.find({ where: { email }, order: { createdAt: 'DESC', id: 'ASC' }, take: DELIVERIES_LIMIT });
    return rows.map((row) => AlertDeliveryDto.from(row));
  }

  /** A channel's form, then where it points (rules: outbound-targets). */
  private async channel(raw: unknown): Promise<AlertChannel> {
    const channel = parseChannel(raw);
    await assertChannelTarget(channel, this.targets);
    return channel;
  }

  /** The answer masks the secret, so it opens it first; the stored row keeps it sealed. */
  private answer(row: AlertRuleEntity): AlertRuleDto {
    return AlertRuleDto.from(row, openedChannel(row.channel, this.keyring));
  }

  private async owned(id: string, email: string): Promise<AlertRuleEntity> {
    const rule = await this.rules.findOneBy({ id, email });
    if (!rule) throw AppError.notFound(ALERT_RULE_NOT_FOUND);
    return rule;
  }
}
