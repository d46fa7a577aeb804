import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Keyring } from './secret-box.js';

/** The keyring that seals and opens stored secrets (rules: sealed-secrets). */
export const SECRETS_KEYRING = Symbol('SECRETS_KEYRING');

/** Provides the keyring the start loaded, so every module seals with the same key. */
@Global()
@Module({})
export class SecretsModule {
  static forRoot(keyring: Keyring): DynamicModule {
    return { module: SecretsModule, providers: [{ provide: SECRETS_KEYRING, useValue: keyring }], exports: [SECRETS_KEYRING] };
  }
}
