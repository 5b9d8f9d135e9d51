import { z } from 'zod';
import { button, buttonFallback, note, paragraph } from './layout.ts';

/**
 * Where a refund's money goes. A card's or a PIX's goes back the way it came; a paid boleto's has nowhere to go back
 * to, so the payer gives a bank account on the provider's page (`bankDetailsUrl`) and the money is sent there.
 */
export const refundDestinationData = {
  bankDetailsUrl: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .default(null),
};

const ASK = 'Informe seus dados bancários para receber o reembolso';
const STATEMENT = 'O prazo para o valor aparecer no extrato depende do seu banco ou da operadora do cartão.';
const BANK_TRANSFER = 'O valor é transferido para a conta informada assim que os dados forem conferidos.';

/**
 * What happens to "o valor": `sameWay` ("foi estornado para a mesma forma de pagamento"), or, for a paid boleto, that it
 * will be sent to the bank account the payer gives.
 */
export const refundGoes = (bankDetailsUrl: string | null, sameWay = 'foi estornado para a mesma forma de pagamento') =>
  bankDetailsUrl ? 'será transferido para a conta bancária que você informar' : sameWay;

/** The text version's lines after the refund is told: the bank details' link, or when it shows on the statement. */
export const refundNextStepsText = (bankDetailsUrl: string | null) =>
  bankDetailsUrl ? `${ASK}:\n${bankDetailsUrl}\n\n${BANK_TRANSFER}` : STATEMENT;

/** The same in the HTML version: the button to the bank details' page, or the note on the statement. */
export const refundNextSteps = (bankDetailsUrl: string | null) =>
  bankDetailsUrl
    ? [
        paragraph(`${ASK}.`),
        button(bankDetailsUrl, 'Informar dados bancários'),
        note(BANK_TRANSFER),
        ...buttonFallback(bankDetailsUrl),
      ]
    : [note(STATEMENT)];
