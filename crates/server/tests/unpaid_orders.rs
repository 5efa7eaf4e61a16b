//! Bank-transfer and cheque orders that are never paid: past the method's hold the
//! upkeep sweep cancels them, gives their stock back and tells the shopper, on both
//! databases.

mod common;

use common::*;
use ferroshop::orders::expiry::cancel_unpaid_offline_orders;
use ferroshop::orders::service::OrderService;

async fn sweep(app: &TestApp) -> usize {
    let mail = order_mail(app);
    let orders = OrderService {
        db: app.db(),
        mail: &mail,
    };
    cancel_unpaid_offline_orders(&orders, &config(app).checkout, rules::clock::now())
        .await
        .unwrap()
}

async fn an_unpaid_bank_transfer_order_past_its_hold_is_cancelled_and_restocked(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store::catalog::set_stock(
        app.db(),
        rules::catalog::model::ProductId(MUG),
        3,
        rules::catalog::model::StockStatus::InStock,
    )
    .await
    .unwrap();
    let old = place_order(&app, &[(MUG, 2)], &[], "bacs", ada_address()).await;
    let fresh = place_order(&app, &[(MUG, 1)], &[], "bacs", ada_address()).await;
    assert_eq!(stock_of(&app, MUG).await, Some(0));
    // The first was placed eight days ago; bank transfers wait seven by default.
    age_order(&app, old, 8).await;
    let mails_before = outbox(&app).await.len();

    assert_eq!(sweep(&app).await, 1);
    assert_eq!(status_of(&app, old).await, "cancelled");
    assert_eq!(status_of(&app, fresh).await, "on-hold");
    assert_eq!(stock_of(&app, MUG).await, Some(2));
    let mails = outbox(&app).await;
    assert_eq!(mails.len(), mails_before + 1);
    let cancelled = &mails[0];
    assert_eq!(cancelled.kind, "customer_cancelled_order");
    assert_eq!(cancelled.recipient, "ada@example.test");
    assert!(cancelled
        .text
        .contains(&format!("Your order #{old} has been cancelled.")));
    // The note says why, and that the shop did it.
    let notes = store::orders::notes(app.db(), rules::orders::model::OrderId(old))
        .await
        .unwrap();
    let last = notes.last().unwrap();
    assert_eq!(
        last.note,
        "Unpaid order cancelled: no bank transfer received within 7 days. Order status changed from On hold to Cancelled."
    );
    assert_eq!(last.actor, "system");
    // Nothing is left to do.
    assert_eq!(sweep(&app).await, 0);
    assert_eq!(stock_of(&app, MUG).await, Some(2));
    app.stop().await;
}

async fn sweeps_running_at_once_cancel_an_order_once(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store::catalog::set_stock(
        app.db(),
        rules::catalog::model::ProductId(MUG),
        3,
        rules::catalog::model::StockStatus::InStock,
    )
    .await
    .unwrap();
    let id = place_order(&app, &[(MUG, 2)], &[], "cheque", ada_address()).await;
    age_order(&app, id, 30).await;
    // Two instances' upkeep tasks wake at the same moment.
    let (a, b) = tokio::join!(sweep(&app), sweep(&app));
    assert_eq!(a + b, 1);
    assert_eq!(status_of(&app, id).await, "cancelled");
    let notes = store::orders::notes(app.db(), rules::orders::model::OrderId(id))
        .await
        .unwrap();
    let cancellations = notes
        .iter()
        .filter(|n| {
            n.note
                .ends_with("Order status changed from On hold to Cancelled.")
        })
        .count();
    assert_eq!(cancellations, 1);
    assert_eq!(stock_of(&app, MUG).await, Some(3));
    let cancel_mails = outbox(&app)
        .await
        .into_iter()
        .filter(|m| m.kind == "customer_cancelled_order")
        .count();
    assert_eq!(cancel_mails, 1);
    app.stop().await;
}

async fn each_method_has_its_own_hold_and_zero_keeps_orders_waiting(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| {
        c.checkout.unpaid_days_bacs = 0;
        c.checkout.unpaid_days_cheque = 3;
    })
    .await
    else {
        return;
    };
    let transfer = place_order(&app, &[(BEANIE, 1)], &[], "bacs", ada_address()).await;
    let cheque = place_order(&app, &[(BEANIE, 1)], &[], "cheque", ada_address()).await;
    let cash = place_order(&app, &[(BEANIE, 1)], &[], "cod", ada_address()).await;
    for id in [transfer, cheque, cash] {
        age_order(&app, id, 100).await;
    }
    assert_eq!(sweep(&app).await, 1);
    assert_eq!(status_of(&app, transfer).await, "on-hold");
    assert_eq!(status_of(&app, cheque).await, "cancelled");
    assert_eq!(status_of(&app, cash).await, "processing");
    app.stop().await;
}

on_both_databases!(
    an_unpaid_bank_transfer_order_past_its_hold_is_cancelled_and_restocked,
    sweeps_running_at_once_cancel_an_order_once,
    each_method_has_its_own_hold_and_zero_keeps_orders_waiting,
);
