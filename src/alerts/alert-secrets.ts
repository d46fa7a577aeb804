import type { Keyring } from '../common/secrets/secret-box.js';
import { openChannel, sealChannel } from '../database/sealed-secrets.js';
import type { AlertChannel, ChannelType } from './alert-rule.types.js';

/**
 * A channel as the database holds it (rules: sealed-secrets): the webhook secret, bot token or
 * Discord webhook URL sealed into `sealed`; a row a version before sealing wrote still has it in clear.
 */
export type StoredChannel = {
  type: ChannelType;
  sealed?: string | null;
  url?: string;
  chatId?: string;
  secret?: string | null;
  botToken?: string;
  webhookUrl?: string;
};

export function storedChannel(channel: AlertChannel, keyring: Keyring): StoredChannel {
  return sealChannel(channel, keyring) as unknown as StoredChannel;
}

/** The channel with its secret opened, for sending and for masking in answers. */
export function openedChannel(stored: StoredChannel, keyring: Keyring): AlertChannel {
  return openChannel(stored, keyring) as unknown as AlertChannel;
}

/** A secret as answers show it: `***` and its last 4 characters (only `***` when it is that short). */
export function maskSecret(secret: string): string {
  return secret.length <= 4 ? '***' : `***${secret.slice(-4)}`;
}

/**
 * The channel as a client sees it. The webhook secret, the bot token and the Discord webhook URL
 * (whose path carries the webhook's token) are masked; the webhook URL and chat id are not secrets.
 */
export function maskedChannel(channel: AlertChannel): Record<string, string | null> {
  switch (channel.type) {
    case 'webhook':
      return { type: 'webhook', url: channel.url, secret: channel.secret === null ? null : maskSecret(channel.secret) };
    case 'telegram':
      return { type: 'telegram', botToken: maskSecret(channel.botToken), chatId: channel.chatId };
    case 'discord':
      return { type: 'discord', webhookUrl: maskSecret(channel.webhookUrl) };
  }
}

/** Every secret a channel holds, to be scrubbed from any text that could reach a log or a client. */
export function secretsOf(channel: AlertChannel): string[] {
  switch (channel.type) {
    case 'webhook':
      return channel.secret === null ? [] : [channel.secret];
    case 'telegram':
      return [channel.botToken];
    case 'discord':
      return [channel.webhookUrl, new URL(channel.webhookUrl).pathname];
  }
}

/** `text` with every occurrence of each secret replaced by `***`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join('***');
  return out;
}
