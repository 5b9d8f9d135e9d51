import { Navigate } from '@ticketing/shared/router';
import { Page, Skeleton, useAuth } from '@ticketing/shared';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@ticketing/shared/primitives';
import { CertificatesTab } from '../account/CertificatesTab.tsx';
import { HeldTickets } from '../account/HeldTickets.tsx';
import { OrdersTab } from '../account/OrdersTab.tsx';
import { PersonalDataTab } from '../account/PersonalDataTab.tsx';
import { ProfileCard } from '../account/ProfileCard.tsx';
import { SecurityTab } from '../account/SecurityTab.tsx';
import '../styles/profile.css';

const TITLE = 'Meu Perfil';

export default function Profile() {
  const auth = useAuth();
  if (auth.status === 'anonymous') return <Navigate to="/login" replace />;
  return (
    <Page title={TITLE}>
      {auth.status === 'loading' ? (
        <div className="profile" aria-busy="true">
          <div className="profile-card card">
            <Skeleton className="profile-card__avatar" />
            <Skeleton style={{ width: '70%' }} />
            <Skeleton style={{ width: '85%' }} />
          </div>
          <Skeleton style={{ height: '20rem' }} />
        </div>
      ) : (
        <div className="profile">
          <ProfileCard user={auth.user} />
          <Tabs defaultValue="ingressos" className="profile__tabs">
            <TabsList aria-label="Seções do perfil">
              <TabsTrigger value="ingressos">Meus Ingressos</TabsTrigger>
              <TabsTrigger value="certificados">Meus certificados</TabsTrigger>
              <TabsTrigger value="dados">Informações Pessoais</TabsTrigger>
              <TabsTrigger value="seguranca">Segurança</TabsTrigger>
            </TabsList>
            <TabsContent value="ingressos">
              <OrdersTab isAdmin={auth.user.isAdmin} />
              <HeldTickets />
            </TabsContent>
            <TabsContent value="certificados">
              <CertificatesTab />
            </TabsContent>
            <TabsContent value="dados">
              <PersonalDataTab user={auth.user} />
            </TabsContent>
            <TabsContent value="seguranca">
              <SecurityTab />
            </TabsContent>
          </Tabs>
        </div>
      )}
    </Page>
  );
}
