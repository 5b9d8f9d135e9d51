import { useWatch } from 'react-hook-form';
import { Checkbox, cnpjMask, TextField } from '@ticketing/shared';
import type { useZodForm } from '@ticketing/shared/forms';
import type { companyFormSchema } from './company-form.ts';

type CompanyFormState = ReturnType<typeof useZodForm<typeof companyFormSchema>>;

/**
 * 'Comprar como empresa': the charge is made out to the company's CNPJ and sent to its finance department; the tickets
 * still go to their holders.
 */
export function CompanyFields({ form }: { form: CompanyFormState }) {
  const asCompany = useWatch({ control: form.control, name: 'asCompany' });
  const { field } = form;
  return (
    <section className="company" aria-label="Comprador">
      <Checkbox
        label="Comprar como empresa"
        className="company__toggle"
        {...form.register('asCompany', {
          // Unchecked, nothing of the company is sent: its messages go too.
          onChange: (change: { target: { checked: boolean } }) => change.target.checked || form.clearErrors(),
        })}
      />
      {asCompany && (
        <div className="stack company__fields">
          <p className="company__note">
            Enviaremos a cobrança para o financeiro: o PIX, o boleto ou o link de pagamento com cartão vão para o e-mail
            abaixo, em nome da empresa. Os ingressos continuam indo para os titulares.
          </p>
          <TextField
            label="CNPJ"
            mask={cnpjMask}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            placeholder="00.000.000/0000-00"
            {...field('cnpj')}
          />
          <TextField label="Razão social" autoComplete="organization" {...field('name')} />
          <TextField label="E-mail do financeiro" type="email" autoComplete="off" {...field('email')} />
          <TextField
            label="Pedido de compra (opcional)"
            autoComplete="off"
            maxLength={60}
            {...field('purchaseOrder')}
          />
        </div>
      )}
    </section>
  );
}
