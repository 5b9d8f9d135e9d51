import { useState, type CSSProperties, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@ticketing/shared/router';
import {
  api,
  Badge,
  Button,
  buttonClass,
  Page,
  signOut,
  Spinner,
  TextField,
  toast,
  toastError,
  useAuth,
} from '@ticketing/shared';

/** POST /api/make-admin/:userId (development tools only). */
interface MadeAdmin {
  user: { id: string; name: string; isAdmin: boolean };
}

/** This development page downloads nothing but its own script, so its few layout rules are inline. */
const styles = {
  cards: { display: 'grid', gap: 'var(--space-5)', maxWidth: '36rem' },
  heading: { fontSize: 'var(--text-lg)' },
  facts: { margin: 0 },
  fact: { margin: '0 0 var(--space-3)', overflowWrap: 'anywhere' },
  after: { margin: 'var(--space-4) 0 0' },
} satisfies Record<string, CSSProperties>;

/**
 * /admin-test, for development: who am I and am I an administrator, and a way to make any account one. The new role
 * comes with the next login.
 */
export default function AdminTest() {
  const auth = useAuth();
  return (
    <Page title="Ferramentas de desenvolvimento">
      <p>Página de teste para ambientes de desenvolvimento: ela não funciona em produção.</p>
      {auth.status === 'loading' && <Spinner label="Carregando..." />}
      {auth.status === 'anonymous' && (
        <div className="card" style={styles.cards}>
          <p style={styles.facts}>Entre com sua conta para ver seus dados e usar as ferramentas.</p>
          <Link to="/login" className={buttonClass('primary')}>
            Fazer login
          </Link>
        </div>
      )}
      {auth.status === 'authenticated' && (
        <div style={styles.cards}>
          <section className="card" aria-labelledby="me-title">
            <h2 id="me-title" style={styles.heading}>
              Sua conta
            </h2>
            <dl style={styles.facts}>
              <dt>
                <strong>Nome</strong>
              </dt>
              <dd style={styles.fact}>{auth.user.name}</dd>
              <dt>
                <strong>ID</strong>
              </dt>
              <dd style={styles.fact}>
                <code>{auth.user.id}</code>
              </dd>
              <dt>
                <strong>Administrador</strong>
              </dt>
              <dd style={styles.facts}>
                {auth.user.isAdmin ? <Badge tone="success">Sim</Badge> : <Badge tone="neutral">Não</Badge>}
              </dd>
            </dl>
          </section>
          <MakeAdmin />
        </div>
      )}
    </Page>
  );
}

function MakeAdmin() {
  const [userId, setUserId] = useState('');
  const [error, setError] = useState<string>();
  const make = useMutation({
    mutationFn: (id: string) => api<MadeAdmin>(`/make-admin/${encodeURIComponent(id)}`, { method: 'POST' }),
    onSuccess: ({ user }) => {
      toast({ title: `Usuário ${user.name} agora é administrador` });
      setUserId('');
    },
    onError: (failure) => toastError('Erro ao tornar usuário administrador', failure),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const id = userId.trim();
    if (!id) {
      setError('Por favor, insira o ID do usuário');
      return;
    }
    setError(undefined);
    make.mutate(id);
  }

  return (
    <section className="card" aria-labelledby="make-admin-title">
      <h2 id="make-admin-title" style={styles.heading}>
        Tornar usuário administrador
      </h2>
      <form onSubmit={submit} noValidate>
        <TextField
          label="ID do usuário"
          value={userId}
          onChange={(event) => setUserId(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          error={error}
          hint="Depois, o usuário precisa sair e entrar novamente para receber o acesso."
        />
        <Button type="submit" loading={make.isPending}>
          Tornar administrador
        </Button>
      </form>
      {make.isSuccess && (
        <p role="status" style={styles.after}>
          {make.data.user.name} agora é administrador. Se for a sua conta,{' '}
          <Button variant="ghost" size="sm" onClick={signOut}>
            saia
          </Button>{' '}
          e entre novamente.
        </p>
      )}
    </section>
  );
}
