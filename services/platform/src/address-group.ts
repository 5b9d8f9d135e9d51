import { isIPv6 } from 'node:net';

/**
 * The group a client's address counts in for rate limits: an IPv4 address one by one (an IPv4 client reached
 * through an IPv6 socket under its IPv4 address), an IPv6 address by its /64, the block one subscriber usually
 * gets, so a client cannot hop between its own addresses.
 */
export function addressGroup(ip: string): string {
  const plain = (ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip).split('%')[0]!;
  if (!isIPv6(plain)) return plain;
  const [head = '', tail] = plain.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  // An embedded IPv4 address fills the last two groups.
  const width = (parts: string[]) => parts.reduce((sum, part) => sum + (part.includes('.') ? 2 : 1), 0);
  const left = groups(head);
  const right = groups(tail);
  const all =
    tail === undefined ? left : [...left, ...Array<string>(8 - width(left) - width(right)).fill('0'), ...right];
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
