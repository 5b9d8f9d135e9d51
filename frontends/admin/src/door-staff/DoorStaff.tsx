import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { emailField, type DoorStaffView } from '@ticketing/proto';
import { Button, isApiError, Skeleton, TextField, toast, toastError } from '@ticketing/shared';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import { doorStaffKey, fetchDoorStaff, saveDoorStaff } from './queries.ts';
import './door-staff.css';

/**
 * 'Equipe de portaria' of an event: who may scan, look up and follow its door. Adding an e-mail makes that verified
 * account door staff of this event (and gives it the door role); removing takes this event away from it. Door
 * staff see only the events listed for them here, whatever their date.
 */
export function DoorStaff({ eventId }: { eventId: string }) {
  const queryClient = useQueryClient();
  const staff = useQuery({ queryKey: doorStaffKey(eventId), queryFn: ({ signal }) => fetchDoorStaff(eventId, signal) });
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const save = useMutation({
    mutationFn: (emails: string[]) => saveDoorStaff(eventId, emails),
    onSuccess: (answer: DoorStaffView) => queryClient.setQueryData(doorStaffKey(eventId), answer),
  });
  const emails = staff.data?.staff.map((person) => person.email) ?? [];

  const add = async (submitted: FormEvent) => {
    submitted.preventDefault();
    const parsed = emailField.safeParse(typed);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    const email = parsed.data;
    if (emails.includes(email)) return setError('Esta pessoa já está na equipe');
    try {
      await save.mutateAsync([...emails, email]);
      setTyped('');
      setError(undefined);
      toast({
        title: 'Equipe de portaria atualizada',
        description: `${email} pode trabalhar na portaria deste evento.`,
      });
    } catch (failure) {
      // Not a verified account: said next to the field it came from.
      if (isApiError(failure, 422)) setError(failure.message);
      else toastError('Erro ao atualizar a equipe de portaria', failure);
    }
  };

  const remove = (email: string) =>
    save.mutate(
      emails.filter((other) => other !== email),
      {
        onSuccess: () => toast({ title: 'Equipe de portaria atualizada', description: `${email} saiu da equipe.` }),
        onError: (error) => toastError('Erro ao atualizar a equipe de portaria', error),
      },
    );

  return (
    <section className="card door-staff" aria-labelledby="door-staff-title">
      <h2 id="door-staff-title" className="door-staff__title">
        Equipe de portaria
      </h2>
      <p className="door-staff__lead">
        Quem pode ler ingressos, buscar participantes e acompanhar a entrada deste evento. A equipe vê só os eventos em
        que está escalada.
      </p>
      {staff.isPending && <Skeleton className="door-staff__skeleton" />}
      {staff.isError && (
        <LoadFailure message="Não foi possível carregar a equipe de portaria." onRetry={() => staff.refetch()} />
      )}
      {staff.data &&
        (staff.data.staff.length === 0 ? (
          <p className="door-staff__empty">Ninguém escalado ainda: só administradores podem abrir esta portaria.</p>
        ) : (
          <ul className="door-staff__list" aria-label="Pessoas escaladas">
            {staff.data.staff.map((person) => (
              <li key={person.id} className="door-staff__person">
                <span>
                  <span className="door-staff__name">{person.name}</span>
                  <span className="door-staff__email">{person.email}</span>
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={save.isPending}
                  onClick={() => remove(person.email)}
                  aria-label={`Remover ${person.name} da equipe`}
                >
                  Remover
                </Button>
              </li>
            ))}
          </ul>
        ))}
      {staff.data && (
        <form className="door-staff__add" onSubmit={add} noValidate>
          <TextField
            label="E-mail de quem vai trabalhar na portaria"
            hint="Uma conta com e-mail verificado."
            type="email"
            autoComplete="off"
            value={typed}
            error={error}
            onChange={(event) => setTyped(event.target.value)}
          />
          <Button type="submit" loading={save.isPending}>
            Adicionar
          </Button>
        </form>
      )}
    </section>
  );
}
