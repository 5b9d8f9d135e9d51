import { cnpj } from 'cpf-cnpj-validator';

/**
 * A CNPJ's check digits, numeric or in the alphanumeric form the Receita Federal issues since July 2026
 * (`12.ABC.345/01DE-35`), typed with or without punctuation.
 */
export const isValidCnpj = (value: string): boolean => cnpj.isValid(value.toUpperCase());

/** `12.345.678/0001-95`: a CNPJ as documents write it (letters upper-cased). */
export const formatCnpj = (value: string): string => cnpj.format(value.toUpperCase());

/** The 14 characters of a CNPJ without punctuation, as the payment provider takes it. */
export const cnpjCharacters = (value: string): string => cnpj.strip(value.toUpperCase());
