//! The README's plugin example is `examples/quickstart.rs`, word for word.

#[test]
fn the_readme_plugin_example_is_the_quickstart_example() {
    let readme = include_str!("../README.md");
    let quickstart = include_str!("../examples/quickstart.rs");
    let block = readme
        .split("```rust,no_run\n")
        .nth(1)
        .and_then(|rest| rest.split("```\n").next())
        .expect("the README has a no_run Rust block");
    assert_eq!(block, quickstart);
}
