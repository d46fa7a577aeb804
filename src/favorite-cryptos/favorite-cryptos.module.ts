import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FavoriteCryptoEntity } from './favorite-crypto.entity.js';
import { FavoriteCryptosController } from './favorite-cryptos.controller.js';
import { FavoriteCryptosService } from './favorite-cryptos.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([FavoriteCryptoEntity])],
  controllers: [FavoriteCryptosController],
  providers: [FavoriteCryptosService],
})
export class FavoriteCryptosModule {}
