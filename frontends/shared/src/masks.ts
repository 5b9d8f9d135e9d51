/** Formats what is typed as it is typed; `maxLength` is the formatted length. */
export interface Mask {
  maxLength: number;
  apply(value: string): string;
  /** The phone's keyboard for it (default: numeric). */
  inputMode?: 'numeric' | 'text';
}

const digits = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

/** 000.000.000-00 */
export const cpfMask: Mask = {
  maxLength: 14,
  apply(value) {
    const d = digits(value, 11);
    return (
      [d.slice(0, 3), d.slice(3, 6), d.slice(6, 9)].filter(Boolean).join('.') + (d.length > 9 ? `-${d.slice(9)}` : '')
    );
  },
};

/** (00) 00000-0000 for mobiles, (00) 0000-0000 for landlines. */
export const phoneMask: Mask = {
  maxLength: 15,
  apply(value) {
    const d = digits(value, 11);
    if (d.length === 0) return '';
    if (d.length <= 2) return `(${d}`;
    const number = d.slice(2);
    const split = number.length > 8 ? 5 : 4;
    const rest = number.length > split ? `${number.slice(0, split)}-${number.slice(split)}` : number;
    return `(${d.slice(0, 2)}) ${rest}`;
  },
};

/** dd/mm/aaaa */
export const birthDateMask: Mask = {
  maxLength: 10,
  apply(value) {
    const d = digits(value, 8);
    return [d.slice(0, 2), d.slice(2, 4), d.slice(4)].filter(Boolean).join('/');
  },
};

/**
 * 00.000.000/0000-00. The Receita Federal issues alphanumeric CNPJs since July 2026: the first 12 characters may be
 * letters (upper-cased as typed), the 2 check digits are always numbers.
 */
export const cnpjMask: Mask = {
  maxLength: 18,
  inputMode: 'text',
  apply(value) {
    const typed = value.toUpperCase().replace(/[^A-Z0-9]/g, '');
    const c = typed.slice(0, 12) + typed.slice(12).replace(/\D/g, '').slice(0, 2);
    const parts = [c.slice(0, 2), c.slice(2, 5), c.slice(5, 8)].filter(Boolean).join('.');
    return parts + (c.length > 8 ? `/${c.slice(8, 12)}` : '') + (c.length > 12 ? `-${c.slice(12)}` : '');
  },
};
