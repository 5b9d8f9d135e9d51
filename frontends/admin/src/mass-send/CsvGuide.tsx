import { useQuery } from '@tanstack/react-query';
import { MASS_SEND_COLUMNS, type EventView } from '@ticketing/proto';
import { buttonClass, formatShortDate, Skeleton, useFailureToast } from '@ticketing/shared';

const COLUMNS: Record<(typeof MASS_SEND_COLUMNS)[number], string> = {
  name: 'nome completo do convidado',
  email: 'e-mail que recebe o convite',
  amount_of_courtesies: 'quantidade de ingressos, de 1 a 100',
  event_id: 'identificador do evento (lista abaixo)',
};

const PLACEHOLDER_EVENT_ID = '00000000-0000-0000-0000-000000000000';

/** An example file in the layout Excel writes in Brazil (`;`, with a BOM so accents open right). */
function exampleCsv(eventId: string) {
  const rows = [
    MASS_SEND_COLUMNS.join(';'),
    `Ana Beatriz Souza;ana.souza@example.com.br;1;${eventId}`,
    `Carlos Eduardo Lima;carlos.lima@example.com.br;2;${eventId}`,
  ];
  return `data:text/csv;charset=utf-8,${encodeURIComponent(`\uFEFF${rows.join('\r\n')}\r\n`)}`;
}

/** How to write the guests' file, an example to download, and the ids of the events it may name. */
export function CsvGuide() {
  const events = useQuery<EventView[]>({ queryKey: ['events'] });
  useFailureToast(events.error, 'Erro');
  return (
    <aside className="card csv-guide" aria-labelledby="csv-guide-title">
      <h2 id="csv-guide-title" className="csv-guide__title">
        Como montar o arquivo
      </h2>
      <p>
        A primeira linha traz os nomes das colunas; cada linha seguinte é um convidado. Separe as colunas com ponto e
        vírgula (;) ou vírgula (,).
      </p>
      <dl className="csv-guide__columns">
        {MASS_SEND_COLUMNS.map((column) => (
          <div key={column}>
            <dt>
              <code>{column}</code>
            </dt>
            <dd>{COLUMNS[column]}</dd>
          </div>
        ))}
      </dl>
      <p className="csv-guide__limits">
        Até 5.000 convidados e 2 MB por arquivo. Um arquivo com erros não envia nenhum convite: as linhas a corrigir
        aparecem na tela.
      </p>
      <a
        className={buttonClass('outline', 'sm')}
        href={exampleCsv(events.data?.[0]?.id ?? PLACEHOLDER_EVENT_ID)}
        download="exemplo-cortesias.csv"
      >
        Baixar CSV de exemplo
      </a>

      <h3 className="csv-guide__events-title">Eventos disponíveis</h3>
      {events.isPending && (
        <div className="csv-guide__events" aria-label="Carregando eventos">
          <Skeleton style={{ height: '2.5rem' }} />
          <Skeleton style={{ height: '2.5rem' }} />
        </div>
      )}
      {events.isError && <p>Não foi possível carregar os eventos.</p>}
      {events.data?.length === 0 && <p>Nenhum evento futuro disponível.</p>}
      {events.data && events.data.length > 0 && (
        <ul className="csv-guide__events">
          {events.data.map((event) => (
            <li key={event.id}>
              <span className="csv-guide__event-title">
                {event.title} — {formatShortDate(event.date)}
              </span>
              <code className="csv-guide__event-id">{event.id}</code>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
