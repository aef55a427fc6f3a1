"""Blueprint Studio: the Streamlit app over the engine (started by `blueprint studio`)."""
