//! The API's routes, registered through one builder that remembers every method and
//! path it is given. The published API description (`openapi.json`) is checked
//! against that list by a test, so neither can change without the other.

use std::collections::BTreeMap;

use axum::handler::Handler;
use axum::http::Method;
use axum::routing::MethodRouter;
use axum::Router;

/// One call the server answers: a method and a path template (`/products/{id}`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Operation {
    pub method: Method,
    pub path: String,
}

#[derive(Clone)]
pub struct ApiRoutes<S> {
    routes: BTreeMap<String, MethodRouter<S>>,
    operations: Vec<Operation>,
}

impl<S: Clone + Send + Sync + 'static> Default for ApiRoutes<S> {
    fn default() -> Self {
        Self {
            routes: BTreeMap::new(),
            operations: Vec::new(),
        }
    }
}

impl<S: Clone + Send + Sync + 'static> ApiRoutes<S> {
    pub fn new() -> Self {
        Self::default()
    }

    fn add(
        mut self,
        method: Method,
        path: &str,
        route: impl FnOnce(MethodRouter<S>) -> MethodRouter<S>,
    ) -> Self {
        let entry = self.routes.remove(path).unwrap_or_default();
        self.routes.insert(path.to_string(), route(entry));
        self.operations.push(Operation {
            method,
            path: path.to_string(),
        });
        self
    }

    pub fn get<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, S>,
        T: 'static,
    {
        // GET routes answer HEAD too.
        self.add(Method::GET, path, |r| r.get(handler))
    }

    pub fn post<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, S>,
        T: 'static,
    {
        self.add(Method::POST, path, |r| r.post(handler))
    }

    pub fn put<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, S>,
        T: 'static,
    {
        self.add(Method::PUT, path, |r| r.put(handler))
    }

    pub fn patch<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, S>,
        T: 'static,
    {
        self.add(Method::PATCH, path, |r| r.patch(handler))
    }

    pub fn delete<H, T>(self, path: &str, handler: H) -> Self
    where
        H: Handler<T, S>,
        T: 'static,
    {
        self.add(Method::DELETE, path, |r| r.delete(handler))
    }

    /// Another set of routes under `prefix`.
    pub fn nest(mut self, prefix: &str, other: ApiRoutes<S>) -> Self {
        for (path, route) in other.routes {
            let full = format!("{prefix}{path}");
            let entry = self.routes.remove(&full).unwrap_or_default();
            self.routes.insert(full, entry.merge(route));
        }
        self.operations
            .extend(other.operations.into_iter().map(|op| Operation {
                method: op.method,
                path: format!("{prefix}{}", op.path),
            }));
        self
    }

    /// The same routes under another prefix, answered alike but not described again
    /// (the Store API's unversioned root).
    pub fn alias(self, prefix: &str, other: ApiRoutes<S>) -> Self {
        let operations = self.operations.clone();
        let mut nested = self.nest(prefix, other);
        nested.operations = operations;
        nested
    }

    pub fn merge(self, other: ApiRoutes<S>) -> Self {
        self.nest("", other)
    }

    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }

    pub fn into_router(self) -> Router<S> {
        self.routes
            .into_iter()
            .fold(Router::new(), |router, (path, route)| {
                router.route(&path, route)
            })
    }
}
