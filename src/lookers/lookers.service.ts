import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Observable } from 'rxjs';
import type { Repository } from 'typeorm';
import { AppError, ErrorCode } from '../common/errors/app-error.js';
import { EMAIL_MISMATCH } from '../common/http/auth-scope.js';
import type { SseFrame } from '../common/sse/sse-frame.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { type ExchangeName, FIRST_EXCHANGE, oneOfExchanges, parseConfiguredExchange } from '../market-model/exchanges.js';
import type { CreateLookerDto } from './dto/create-looker.dto.js';
import { uniqueCryptos } from './dto/looker-rules.js';
import { LookerDto } from './dto/looker.dto.js';
import type { UpdateLookerDto } from './dto/update-looker.dto.js';
import { toLookerWatch } from './looker-price.engine.js';
import { LookerEntity } from './looker.entity.js';
import { LookerStreamsService } from './looker-streams.service.js';

export const LOOKER_NOT_FOUND = 'looker not found';

@Injectable()
export class LookersService {
  private readonly exchanges: readonly ExchangeName[];

  constructor(
    @InjectRepository(LookerEntity) private readonly lookers: Repository<LookerEntity>,
    private readonly streams: LookerStreamsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.exchanges = config.marketData.exchanges;
  }

  async create(dto: CreateLookerDto): Promise<LookerDto> {
    const exchange = this.exchangeOf(dto.exchange);
    const saved = await this.lookers.save(
      this.lookers.create({
        email: dto.email,
        name: dto.name ?? null,
        cryptos: uniqueCryptos(dto.cryptos),
        exchange,
        market: dto.market ?? 'SPOT',
      }),
    );
    return LookerDto.from(saved);
  }

  /** Newest first; the id breaks ties of the same millisecond so the order is stable. */
  async list(email: string): Promise<LookerDto[]> {
    const rows = await this.lookers.find({ where: { email }, order: { createdAt: 'DESC', id: 'ASC' } });
    return rows.map((row) => LookerDto.from(row));
  }

  async update(id: string, email: string, dto: UpdateLookerDto): Promise<LookerDto> {
    if (dto.name === undefined && dto.cryptos === undefined) throw AppError.invalid('name or cryptos is required');
    const looker = await this.lookers.findOneBy({ id, email });
    if (!looker) throw AppError.notFound(LOOKER_NOT_FOUND);
    if (dto.name !== undefined) looker.name = dto.name;
    if (dto.cryptos !== undefined) looker.cryptos = uniqueCryptos(dto.cryptos);
    const saved = await this.lookers.save(looker);
    this.streams.update(saved.id, toLookerWatch(saved));
    return LookerDto.from(saved);
  }

  async remove(id: string, email: string): Promise<void> {
    const result = await this.lookers.delete({ id, email });
    if (!result.affected) throw AppError.notFound(LOOKER_NOT_FOUND);
    this.streams.end(id);
  }

  /**
   * The looker's frames; 404 before anything is opened when it does not exist. `callerEmail`
   * (AUTH_MODE=token) is the token's e-mail: another user's looker is a 403.
   */
  async stream(id: string, callerEmail?: string): Promise<Observable<SseFrame>> {
    const looker = await this.lookers.findOneBy({ id });
    if (!looker) throw AppError.notFound(LOOKER_NOT_FOUND);
    if (callerEmail !== undefined && looker.email.toLowerCase() !== callerEmail) throw new AppError(ErrorCode.Forbidden, EMAIL_MISMATCH);
    return this.streams.frames(looker.id, toLookerWatch(looker));
  }

  /** The `lookers` rule: case-insensitive, one of the configured exchanges; omitted means the first of them. */
  private exchangeOf(value: unknown): ExchangeName {
    if (value === undefined || value === null) return this.exchanges[0] ?? FIRST_EXCHANGE;
    const exchange = parseConfiguredExchange(value, this.exchanges);
    if (exchange) return exchange;
    throw AppError.invalid(oneOfExchanges('exchange', this.exchanges));
  }
}
