import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AppError } from '../common/errors/app-error.js';
import { FavoriteCryptoEntity } from './favorite-crypto.entity.js';
import type { CreateFavoriteCryptoDto } from './dto/create-favorite-crypto.dto.js';
import { FavoriteCryptoDto } from './dto/favorite-crypto.dto.js';

@Injectable()
export class FavoriteCryptosService {
  constructor(@InjectRepository(FavoriteCryptoEntity) private readonly favorites: Repository<FavoriteCryptoEntity>) {}

  /**
   * The unique (email, ticker) constraint decides: ON CONFLICT DO NOTHING returns no row for a
   * duplicate, so two concurrent identical creates give one 201 and one 409, never a 500.
   */
  async create(dto: CreateFavoriteCryptoDto): Promise<FavoriteCryptoDto> {
    const result = await this.favorites
      .createQueryBuilder()
      .insert()
      .values({ email: dto.email, ticker: dto.ticker })
      .orIgnore()
      .returning(['id', 'email', 'ticker', 'createdAt'])
      .execute();
    const row = (result.raw as { id: string; email: string; ticker: string; created_at: Date }[])[0];
    if (!row) throw AppError.conflict('favorite crypto already exists');
    return FavoriteCryptoDto.from({ id: row.id, email: row.email, ticker: row.ticker, createdAt: new Date(row.created_at) });
  }

  async list(email: string): Promise<FavoriteCryptoDto[]> {
    const rows = await this.favorites.find({ where: { email }, order: { createdAt: 'DESC', id: 'ASC' } });
    return rows.map((row) => FavoriteCryptoDto.from(row));
  }

  async remove(id: string, email: string): Promise<void> {
    const result = await this.favorites.delete({ id, email });
    if (!result.affected) throw AppError.notFound('favorite crypto not found');
  }
}
