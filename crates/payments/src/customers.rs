//! Customers: the provider's record of a shopper with an account, holding their saved
//! payment methods and the one used by default.

use serde::Deserialize;

use crate::client::{segment, Client};
use crate::error::Error;
use crate::expandable::Object;
use crate::form::Form;
use crate::idempotency::IdempotencyKey;
use crate::ids::{CustomerId, PaymentMethodId};
use crate::lenient::{id_or_object, null_as_default};
use crate::Metadata;

#[derive(Debug, Clone, Deserialize)]
pub struct Customer {
    pub id: CustomerId,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub invoice_settings: InvoiceSettings,
    #[serde(default, deserialize_with = "null_as_default")]
    pub metadata: Metadata,
    /// A deleted customer is sent as its id and `deleted: true`, nothing else.
    #[serde(default)]
    pub deleted: bool,
}

impl Object for Customer {
    type Id = CustomerId;
    fn id(&self) -> &CustomerId {
        &self.id
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct InvoiceSettings {
    /// The method charged when none is named.
    #[serde(default, deserialize_with = "id_or_object")]
    pub default_payment_method: Option<PaymentMethodId>,
}

/// `POST /v1/customers`.
#[derive(Debug, Clone, Default)]
pub struct CreateCustomer {
    pub email: Option<String>,
    pub name: Option<String>,
    pub phone: Option<String>,
    /// Attached to the new customer.
    pub payment_method: Option<PaymentMethodId>,
    /// `invoice_settings[default_payment_method]`.
    pub default_payment_method: Option<PaymentMethodId>,
    pub metadata: Metadata,
}

/// `POST /v1/customers/{id}`: only the fields set are changed.
#[derive(Debug, Clone, Default)]
pub struct UpdateCustomer {
    pub email: Option<String>,
    pub name: Option<String>,
    pub phone: Option<String>,
    /// `invoice_settings[default_payment_method]`; the method must be attached.
    pub default_payment_method: Option<PaymentMethodId>,
    pub metadata: Metadata,
}

impl Client {
    pub async fn create_customer(
        &self,
        params: &CreateCustomer,
        idempotency_key: &IdempotencyKey,
    ) -> Result<Customer, Error> {
        let mut form = Form::new();
        form.push_opt(&["email"], params.email.as_ref())
            .push_opt(&["name"], params.name.as_ref())
            .push_opt(&["phone"], params.phone.as_ref())
            .push_opt(&["payment_method"], params.payment_method.as_ref())
            .push_opt(
                &["invoice_settings", "default_payment_method"],
                params.default_payment_method.as_ref(),
            )
            .push_map(&["metadata"], &params.metadata);
        self.post("/v1/customers", &form, idempotency_key).await
    }

    pub async fn retrieve_customer(&self, id: &CustomerId) -> Result<Customer, Error> {
        let path = format!("/v1/customers/{}", segment(id.as_str()));
        self.get(&path, &Form::new()).await
    }

    pub async fn update_customer(
        &self,
        id: &CustomerId,
        params: &UpdateCustomer,
        idempotency_key: &IdempotencyKey,
    ) -> Result<Customer, Error> {
        let path = format!("/v1/customers/{}", segment(id.as_str()));
        let mut form = Form::new();
        form.push_opt(&["email"], params.email.as_ref())
            .push_opt(&["name"], params.name.as_ref())
            .push_opt(&["phone"], params.phone.as_ref())
            .push_opt(
                &["invoice_settings", "default_payment_method"],
                params.default_payment_method.as_ref(),
            )
            .push_map(&["metadata"], &params.metadata);
        self.post(&path, &form, idempotency_key).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deleted_customer_is_read() {
        let customer: Customer =
            serde_json::from_str(r#"{"id": "cus_1", "object": "customer", "deleted": true}"#)
                .unwrap();
        assert!(customer.deleted);
        assert_eq!(customer.email, None);
        assert_eq!(customer.invoice_settings.default_payment_method, None);
    }
}
