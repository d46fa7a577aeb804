import { describe, expect, it } from 'vitest';
import { addressClass } from './outbound-target.engine.js';

/** rules: outbound-targets. Each class at its edges: the first and last address in, the neighbours out. */
describe('addressClass', () => {
  it.each([
    ['0.0.0.0', 'unspecified'], ['0.255.255.255', 'unspecified'],
    ['10.0.0.0', 'private'], ['10.255.255.255', 'private'],
    ['100.64.0.0', 'carrier-grade NAT'], ['100.127.255.255', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback'],
    ['169.254.0.0', 'link-local'], ['169.254.169.254', 'link-local'], ['169.254.255.255', 'link-local'],
    ['172.16.0.0', 'private'], ['172.31.255.255', 'private'],
    ['192.0.0.170', 'reserved'], ['192.88.99.1', 'reserved'],
    ['192.0.2.1', 'documentation'], ['198.51.100.7', 'documentation'], ['203.0.113.255', 'documentation'],
    ['192.168.0.0', 'private'], ['192.168.255.255', 'private'],
    ['198.18.0.0', 'benchmarking'], ['198.19.255.255', 'benchmarking'],
    ['224.0.0.0', 'multicast'], ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'], ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('IPv4 %s is %s', (address, cls) => {
    expect(addressClass(address)).toBe(cls);
  });

  it.each([
    '1.1.1.1', '8.8.8.8', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0',
    '169.253.255.255', '169.255.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '198.17.255.255',
    '198.20.0.0', '223.255.255.255',
  ])('IPv4 %s is public', (address) => {
    expect(addressClass(address)).toBeNull();
  });

  it.each([
    ['::', 'unspecified'], ['::1', 'loopback'], ['[::1]', 'loopback'],
    ['fe80::', 'link-local'], ['fe80::1%eth0', 'link-local'], ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'private'], ['64:ff9b:1::a', 'private'],
    ['fc00::', 'unique-local'], ['fd12:3456::1', 'unique-local'], ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
    ['ff00::', 'multicast'], ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'], ['3fff::1', 'documentation'],
    ['2001:2::1', 'benchmarking'], ['2001::1', 'reserved'],
    ['::2', 'reserved'], ['100::1', 'reserved'], ['1fff:ffff::1', 'reserved'], ['4000::1', 'reserved'], ['fbff::1', 'reserved'],
  ])('IPv6 %s is %s', (address, cls) => {
    expect(addressClass(address)).toBe(cls);
  });

  it.each(['2606:4700:4700::1111', '2a00:1450:4001::200e', '2000::', '3ffe:ffff::1', '2001:1::1', '2001:db7:ffff::1', '2001:db9::1'])('IPv6 %s is public', (address) => {
    expect(addressClass(address)).toBeNull();
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'], ['::ffff:172.16.0.0', 'private'], ['::ffff:100.64.0.0', 'carrier-grade NAT'],
    ['::ffff:0.0.0.0', 'unspecified'], ['::ffff:255.255.255.255', 'broadcast'], ['::ffff:224.0.0.1', 'multicast'],
    ['64:ff9b::127.0.0.1', 'loopback'], ['64:ff9b::a00:1', 'private'], ['2002:7f00:1::', 'loopback'], ['2002:c0a8:101::1', 'private'],
  ])('an IPv4 address inside IPv6, %s, is judged as the IPv4 one: %s', (address, cls) => {
    expect(addressClass(address)).toBe(cls);
  });

  it.each(['::ffff:1.1.1.1', '::ffff:172.15.255.255', '::ffff:100.63.255.255', '64:ff9b::808:808', '2002:808:808::1'])('%s embeds a public IPv4 and is public', (address) => {
    expect(addressClass(address)).toBeNull();
  });

  it.each(['', 'localhost', '1.2.3', '1.2.3.256', 'gg::1'])('%j is not an address, so not a public one', (address) => {
    expect(addressClass(address)).toBe('reserved');
  });
});
