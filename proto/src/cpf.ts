/** A CPF's two check digits (mod 11), so typos are caught before the server is asked. */
export function isValidCpf(value: string): boolean {
  const digits = value.replace(/\D/g, '');
  if (digits.length !== 11 || /^(\d)\1{10}$/.test(digits)) return false;
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
}

/** `***.456.789-**`: the middle digits, as receipts show a CPF; null when there is no CPF of 11 digits. */
export function maskCpf(cpf: string | null | undefined): string | null {
  const digits = cpf?.replace(/\D/g, '') ?? '';
  return digits.length === 11 ? `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**` : null;
}

/** `123.456.789-09`: the 11 digits of a CPF as documents write them. */
export const formatCpf = (digits: string) =>
  `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
