import { useDeferredValue, useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, SelectField, Spinner } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { Dialog, DialogContent, Tabs, TabsContent, TabsList, TabsTrigger } from '@ticketing/shared/primitives';
import { DEFAULT_INSTALLMENT_TERMS, PAYMENT_WINDOWS, type CreateOrder } from '@ticketing/proto';
import { isSoldOut } from '../events/availability.ts';
import { closedTypesLabel } from '../events/ticket-types.ts';
import { companyFormSchema, noCompany } from './company-form.ts';
import { CompanyFields } from './CompanyFields.tsx';
import { CouponField } from './CouponField.tsx';
import { HolderFields } from './HolderFields.tsx';
import { installmentOptions } from './installments.ts';
import { OrderSummary } from './OrderSummary.tsx';
import { PaymentDetails } from './PaymentDetails.tsx';
import { TicketQuantities } from './TicketQuantities.tsx';
import { discountCents, summaryLines, totalCents } from './tickets-form.ts';
import type { CheckoutProps, PaymentMethod } from './types.ts';
import { useCoupon } from './useCoupon.ts';
import { useCreateOrder } from './useCreateOrder.ts';
import { useTicketsForm } from './useTicketsForm.ts';
import './checkout.css';

const METHODS: { value: PaymentMethod; label: string; text: string }[] = [
  {
    value: 'pix',
    label: 'PIX',
    text: `Pague na hora com o QR Code ou o código copia e cola. O código expira em ${PAYMENT_WINDOWS.pixMinutes} minutos, ou no início do evento, se for antes.`,
  },
  {
    value: 'credit_card',
    label: 'Cartão',
    text: 'Enviaremos o link de pagamento com cartão de crédito para o seu e-mail.',
  },
  {
    value: 'boleto',
    label: 'Boleto',
    // Near the event the server brings the due date forward (the payment must clear before the start), or refuses it.
    text: `O boleto tem vencimento em ${PAYMENT_WINDOWS.boletoBusinessDays} dias úteis, ou antes, se o evento estiver próximo: o pagamento precisa ser compensado antes do início. O ingresso é enviado após a compensação.`,
  },
];

/**
 * Choose the tickets (how many of each type, and whom each is for), whether a company buys them, a coupon, how to pay
 * (PIX by default; a card in installments where the event allows), create the order, then show how to pay it. An
 * event whose types the catalog does not list sells one ticket, the buyer's.
 */
export default function CheckoutDialog({ event, promo, onOpenChange, onSuccess }: CheckoutProps) {
  const queryClient = useQueryClient();
  // The dialog answers the tap at once; its form, the heavier part, renders right after, without holding it up.
  const formReady = useDeferredValue(true, false);
  const [method, setMethod] = useState<PaymentMethod>('pix');
  const [installments, setInstallments] = useState(1);
  const createOrder = useCreateOrder(event.id, promo?.code);
  const answer = createOrder.data;
  const tickets = useTicketsForm(event);
  const company = useZodForm(companyFormSchema, { defaultValues: noCompany, mode: 'onTouched' });
  const coupon = useCoupon(event.id);
  const listsTypes = event.ticketTypes.length > 0;
  const typeOf = (id: string) => event.ticketTypes.find((type) => type.id === id);

  const lines = summaryLines(event, tickets.tickets);
  const discount = coupon.applied ? discountCents(coupon.applied, lines) : 0;
  // The count chosen stays while the total allows it; otherwise the card is charged at once. A catalog deployed before
  // installments sends no terms: at once too.
  const terms = event.installments ?? DEFAULT_INSTALLMENT_TERMS;
  const installmentChoices = installmentOptions(totalCents(lines, promo, discount), terms);
  const installmentCount = installmentChoices.some(({ count }) => count === installments) ? installments : 1;

  function close() {
    // An order now exists: lists that show orders or spots are out of date.
    if (answer) {
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
      void queryClient.invalidateQueries({ queryKey: ['events'] });
    }
    onOpenChange(false);
  }

  // The last spot (or every type's sale) went meanwhile (the server said so and the page now shows it): there is
  // nothing left to buy.
  const closed = (isSoldOut(event) || closedTypesLabel(event) !== null) && !answer;
  useEffect(() => {
    if (closed) onOpenChange(false);
  }, [closed, onOpenChange]);

  /** Both parts of the form show their messages at once; the order goes only when both pass. */
  async function submit(formEvent: FormEvent) {
    formEvent.preventDefault();
    if (createOrder.isPending) return;
    let valid = true;
    const invalid = () => void (valid = false);
    let items: CreateOrder['items'];
    if (listsTypes) await tickets.form.handleSubmit((form) => void (items = form.items), invalid)();
    let buyer: Pick<CreateOrder, 'company'> = {};
    await company.handleSubmit((form) => void (buyer = form), invalid)();
    if (!valid) return;
    createOrder.mutate({
      method,
      items,
      ...buyer,
      installments: method === 'credit_card' ? installmentCount : undefined,
      couponCode: coupon.applied?.code,
    });
  }

  return (
    <Dialog open onOpenChange={(open) => open || close()}>
      <DialogContent
        title={answer ? 'Pagamento' : 'Comprar ingresso'}
        description={answer ? 'Seu pedido foi criado. Complete o pagamento para confirmar seu ingresso.' : undefined}
        className="checkout"
      >
        {answer ? (
          <PaymentDetails
            answer={answer}
            chosen={method}
            onDone={() => {
              close();
              onSuccess();
            }}
          />
        ) : !formReady ? (
          <Spinner label="Carregando..." />
        ) : (
          <form onSubmit={submit} className="checkout__form" noValidate>
            {listsTypes && (
              <>
                <TicketQuantities
                  types={event.ticketTypes}
                  tickets={tickets.tickets}
                  promo={promo !== null}
                  onAdd={tickets.add}
                  onRemove={tickets.remove}
                />
                {tickets.fields.map((ticket, index) => (
                  <HolderFields key={ticket.key} state={tickets} index={index} type={typeOf(ticket.ticketTypeId)} />
                ))}
              </>
            )}
            <CompanyFields form={company} />
            {/* A promotional price and a coupon are not taken together. */}
            {!promo && <CouponField coupon={coupon} discountCents={discount} />}
            <OrderSummary
              event={event}
              lines={lines}
              promo={promo}
              discount={coupon.applied && { code: coupon.applied.code, cents: discount }}
            />
            <Tabs value={method} onValueChange={(value) => setMethod(value as PaymentMethod)}>
              <TabsList aria-label="Forma de pagamento" className="checkout__methods">
                {METHODS.map(({ value, label }) => (
                  <TabsTrigger key={value} value={value} disabled={createOrder.isPending}>
                    {label}
                  </TabsTrigger>
                ))}
              </TabsList>
              {METHODS.map(({ value, text }) => (
                <TabsContent key={value} value={value} className="checkout__method">
                  <p className="checkout__method-text">{text}</p>
                  {value === 'credit_card' && installmentChoices.length > 1 && (
                    <SelectField
                      label="Parcelas"
                      className="checkout__installments"
                      value={installmentCount}
                      onChange={(change) => setInstallments(Number(change.target.value))}
                      disabled={createOrder.isPending}
                    >
                      {installmentChoices.map(({ count, label }) => (
                        <option key={count} value={count}>
                          {label}
                        </option>
                      ))}
                    </SelectField>
                  )}
                </TabsContent>
              ))}
            </Tabs>
            <Button type="submit" variant="accent" size="lg" block loading={createOrder.isPending}>
              Confirmar compra
            </Button>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
