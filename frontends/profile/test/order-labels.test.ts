import { installmentsLabel } from '../src/account/order-labels.ts';

test('a card in installments reads with each installment; at once, or another method, has no such label', () => {
  const order = { paymentMethod: 'credit_card', installments: 3, totalAmount: '1295.00' } as const;
  expect(installmentsLabel(order)).toBe('Cartão em 3x de R$\u00a0431,67');
  expect(installmentsLabel({ ...order, installments: 1 })).toBeNull();
  expect(installmentsLabel({ ...order, paymentMethod: 'pix', installments: 1 })).toBeNull();
  expect(installmentsLabel({ ...order, paymentMethod: null, installments: 1, totalAmount: '0.00' })).toBeNull();
});
