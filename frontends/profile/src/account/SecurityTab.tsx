import { ChangePasswordForm } from './ChangePasswordForm.tsx';
import { DeleteAccount } from './DeleteAccount.tsx';

/** 'Segurança': the password and the account itself. */
export function SecurityTab() {
  return (
    <div className="account-stack">
      <ChangePasswordForm />
      <DeleteAccount />
    </div>
  );
}
