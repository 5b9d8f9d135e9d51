/** Brazilian bank slip (boleto) numbers: the 44-digit bar code and the 47-digit typeable line. */

const DAY = 86_400_000;
const FACTOR_BASE = Date.UTC(1997, 9, 7);

/** Days since 1997-10-07, restarted at 1000 after 9999 (2025-02-22 is 1000 again). */
export function dueDateFactor(dueDate: string): string {
  const days = Math.round((Date.parse(`${dueDate}T00:00:00Z`) - FACTOR_BASE) / DAY);
  if (days < 1000) throw new Error(`due date ${dueDate} before the factor's start`);
  return String(((days - 1000) % 9000) + 1000);
}

/** Mod 10 with weights 2,1,2,1… from the right; products above 9 add their digits. */
export function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/** The bar code's general digit: mod 11 with weights 2..9 from the right; 0, 10 and 11 become 1. */
export function mod11(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit;
}

export interface BoletoInput {
  /** 3 digits. */
  bank: string;
  dueDate: string;
  amountCents: number;
  /** 25 digits chosen by the bank (here: derived from the "nosso número"). */
  freeField: string;
}

export function barCode({ bank, dueDate, amountCents, freeField }: BoletoInput): string {
  if (!/^\d{3}$/.test(bank) || !/^\d{25}$/.test(freeField)) throw new Error('bank needs 3 digits, free field 25');
  const amount = String(amountCents).padStart(10, '0');
  if (amount.length > 10) throw new Error('amount too large for a boleto');
  const withoutDigit = `${bank}9${dueDateFactor(dueDate)}${amount}${freeField}`;
  return `${withoutDigit.slice(0, 4)}${mod11(withoutDigit)}${withoutDigit.slice(4)}`;
}

/** The typeable line: three blocks of the free field with their mod-10 digits, the general digit, factor and amount. */
export function identificationField(code: string): string {
  const bankCurrency = code.slice(0, 4);
  const general = code[4]!;
  const factorAmount = code.slice(5, 19);
  const free = code.slice(19);
  const block1 = bankCurrency + free.slice(0, 5);
  const block2 = free.slice(5, 15);
  const block3 = free.slice(15, 25);
  return `${block1}${mod10(block1)}${block2}${mod10(block2)}${block3}${mod10(block3)}${general}${factorAmount}`;
}
