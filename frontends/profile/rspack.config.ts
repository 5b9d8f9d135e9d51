import { frontendConfig } from '@ticketing/shared/build';

export default frontendConfig({
  name: 'profile',
  dir: import.meta.dirname,
  exposes: {
    './Login': './src/pages/Login.tsx',
    './Register': './src/pages/Register.tsx',
    './ForgotPassword': './src/pages/ForgotPassword.tsx',
    './ResetPassword': './src/pages/ResetPassword.tsx',
    './SignInLink': './src/pages/SignInLink.tsx',
    './VerifyEmail': './src/pages/VerifyEmail.tsx',
    './Profile': './src/pages/Profile.tsx',
  },
});
