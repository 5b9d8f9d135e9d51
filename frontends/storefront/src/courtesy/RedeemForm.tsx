import { useMutation, useQueryClient } from '@tanstack/react-query';
import { brand } from '@ticketing/proto/brand';
import {
  redeemCourtesyFormSchema,
  type PublicCourtesyLinkView,
  type RedeemCourtesy,
  type UserView,
} from '@ticketing/proto';
import { api, Button, cpfMask, formatDate, PhoneField, TextField, toast, toastError } from '@ticketing/shared';
import { useZodForm } from '@ticketing/shared/forms';
import { CourtesyFrame } from './CourtesyFrame.tsx';
import { courtesyLinkQueryKey } from './queries.ts';

interface RedeemFormProps {
  link: PublicCourtesyLinkView;
  user: UserView;
  onRedeemed(): void;
}

/** The guest's details for the ticket, prefilled with the account's; the ticket goes to the e-mail typed here. */
export function RedeemForm({ link, user, onRedeemed }: RedeemFormProps) {
  const queryClient = useQueryClient();
  const { field, handleSubmit } = useZodForm(redeemCourtesyFormSchema, {
    defaultValues: {
      name: user.name,
      email: user.email,
      emailConfirm: user.email,
      cpf: user.cpf,
      partnerCompany: user.partnerCompany ?? '',
      occupation: '',
      birthDate: user.birthDate,
      address: user.address,
      phone: user.phone,
      code: link.code,
    },
  });

  const redeem = useMutation({
    mutationFn: (form: RedeemCourtesy) => api('/courtesy/redeem', { method: 'POST', body: form }),
    onSuccess: () => {
      toast({
        title: 'Cortesia resgatada com sucesso!',
        description: 'Seu ingresso foi enviado para o email cadastrado.',
      });
      // The R$ 0,00 order shows up among the guest's orders; the link has one use less.
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
      void queryClient.invalidateQueries({ queryKey: courtesyLinkQueryKey(link.code) });
      onRedeemed();
    },
    onError: (error) => toastError('Erro ao resgatar cortesia', error),
  });

  return (
    <CourtesyFrame>
      <h1 className="courtesy__title">Resgate de Cortesia</h1>
      <div className="courtesy__event">
        <p className="courtesy__event-title">{link.event.title}</p>
        {link.ticketType && <p className="courtesy__ticket-type">Ingresso {link.ticketType.name}</p>}
        <p className="courtesy__event-when numeric">
          {formatDate(link.event.date)} · {link.event.location}
        </p>
        {user.isAdmin && (
          <p className="courtesy__remaining numeric">{link.remainingTickets} ingresso(s) disponível(is)</p>
        )}
      </div>
      <p className="courtesy__support">
        Dúvidas? Fale com a gente pelo telefone{' '}
        <a href={`tel:+55${brand.supportPhone.replace(/\D/g, '')}`}>{brand.supportPhone}</a>.
      </p>
      <form className="courtesy__form" onSubmit={handleSubmit((form) => redeem.mutate(form))} noValidate>
        <TextField label="Nome completo" autoComplete="name" {...field('name')} />
        <div className="courtesy__row">
          <TextField
            label="E-mail"
            type="email"
            autoComplete="email"
            hint="O ingresso será enviado para este e-mail."
            {...field('email')}
          />
          <TextField label="Confirme o e-mail" type="email" autoComplete="email" {...field('emailConfirm')} />
        </div>
        <div className="courtesy__row">
          <TextField label="CPF" mask={cpfMask} placeholder="000.000.000-00" {...field('cpf')} />
          <PhoneField placeholder="(00) 00000-0000" {...field('phone')} />
        </div>
        <div className="courtesy__row">
          <TextField label="Empresa parceira" autoComplete="organization" {...field('partnerCompany')} />
          <TextField label="Cargo" autoComplete="organization-title" {...field('occupation')} />
        </div>
        <TextField
          label="Data de nascimento"
          type="date"
          autoComplete="bday"
          className="courtesy__birth-date"
          {...field('birthDate')}
        />
        <TextField label="Endereço completo" autoComplete="street-address" {...field('address')} />
        <Button type="submit" variant="accent" size="lg" block loading={redeem.isPending}>
          Resgatar cortesia
        </Button>
      </form>
    </CourtesyFrame>
  );
}
