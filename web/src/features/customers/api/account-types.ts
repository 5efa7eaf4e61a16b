// Shapes of the account calls (`/wp-json/ferroshop/v1/account…`).
import type { StoreAddress } from '@/types/store-api';

export interface AccountUser {
  id: number;
  email: string;
  display_name: string;
  first_name: string;
  last_name: string;
}

export interface AccountProfile {
  user: AccountUser;
  billing: StoreAddress;
  shipping: StoreAddress;
}
