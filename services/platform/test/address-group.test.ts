import { addressGroup } from '../src/address-group.ts';

test('IPv4 addresses count one by one, also when reached through an IPv6 socket', () => {
  expect(addressGroup('203.0.113.9')).toBe('203.0.113.9');
  expect(addressGroup('::ffff:203.0.113.9')).toBe('203.0.113.9');
  expect(addressGroup('')).toBe('');
});

test('an IPv6 address counts by its /64, however it is written', () => {
  const group = '2001:db8:aa:bb::/64';
  for (const ip of [
    '2001:db8:aa:bb:1:2:3:4',
    '2001:0db8:00aa:00bb:ffff:ffff:ffff:fffe',
    '2001:db8:aa:bb::99',
    '2001:DB8:AA:BB::1',
    '2001:db8:aa:bb::1%eth0',
    '2001:db8:aa:bb:0:0:192.0.2.1',
    '2001:db8:aa:bb::192.0.2.1',
  ])
    expect({ ip, group: addressGroup(ip) }).toEqual({ ip, group });
  expect(addressGroup('2001:db8:aa:bc::1')).not.toBe(group);
  expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
  expect(addressGroup('::1')).toBe('0:0:0:0::/64');
});
