import { z } from 'zod';

// Any message a schema does not set itself comes out in Portuguese, never in the library's English.
z.config(z.locales.pt());
